import { spawn } from 'node:child_process';
import { createServer } from 'vite';

/**
 * `npm run dev`: the API on API_PORT (default 3001), restarted on change by tsx watch, and Vite with hot
 * reload on PORT (default 5173), proxying /api to it.
 */
const apiPort = process.env.API_PORT ?? '3001';
const api = spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: apiPort, APP_URL: process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 5173}` },
});

const vite = await createServer({ configFile: 'vite.config.ts' });
await vite.listen();
vite.printUrls();

const stop = async () => {
  api.kill('SIGTERM');
  await vite.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
