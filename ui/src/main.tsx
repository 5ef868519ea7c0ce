import './styles.css';
import { render } from 'preact';
import { App } from './app/App.tsx';
import { interceptLinks } from './app/router.ts';

const root = document.getElementById('app')!;
interceptLinks(document.body);
render(<App />, root);
