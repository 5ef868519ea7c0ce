import { interceptLinks } from './router/router.ts';
import './styles.css';
import './wave-builder.css';
import './narrow-screens.css';
import { render } from 'preact';
import { App } from './app/App.tsx';

const root = document.getElementById('app')!;
interceptLinks(document.body);
render(<App />, root);
