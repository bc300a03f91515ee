/**
 * The page's first script (an async module, so it runs as soon as its few KB are there,
 * before React and the app's chunks are evaluated): connects to the engine and sends the
 * first screen's questions. The entry (main.tsx) takes the same connection over.
 */
import { connectEngine } from './connect-engine';

void connectEngine().catch(() => undefined); // the entry reports failures
