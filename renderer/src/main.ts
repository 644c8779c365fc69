import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { createBridge } from './lib/bridge/bridge.ts';
import { AppState } from './lib/state/app-state.svelte.ts';

const target = document.getElementById('app');
if (target === null) throw new Error('index.html has no #app element');
const app = new AppState(createBridge());
app.start();
mount(App, { target, props: { app } });
