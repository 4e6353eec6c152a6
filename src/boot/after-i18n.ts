// A task boundary in the entry's evaluation (see ./yieldToBrowser.ts).
import { yieldToBrowser } from './yieldToBrowser.js';

await yieldToBrowser();
