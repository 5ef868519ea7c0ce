// Stylesheets are imported for their effect: Vite puts them in the built CSS file.
declare module '*.css';
