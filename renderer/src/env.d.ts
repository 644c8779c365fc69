// Vite bundles CSS imported for its side effect (the theme tokens in app.css).
declare module '*.css';
