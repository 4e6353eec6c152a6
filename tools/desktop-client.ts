/**
 * A small command-line stand-in for the Shapelab desktop application: it signs in, activates the
 * computer, heartbeats and reports sessions and exports through the desktop API, exactly as the
 * application does. Tests drive it, and it generates realistic data.
 *
 *   npx tsx tools/desktop-client.ts --api http://localhost:3000/api --state pc1.json login --email E --password P [--code 123456 | --recovery-code abcde-fghjk]
 *   npx tsx tools/desktop-client.ts --state pc1.json activate --computer-id PC-1 --name "Studio PC" [--replace] [--channel steam]
 *   npx tsx tools/desktop-client.ts --state pc1.json heartbeat [--launched] [--version 2024.2.3]
 *   npx tsx tools/desktop-client.ts --state pc1.json session --length 3600 [--played 3000] [--suspicious]
 *   npx tsx tools/desktop-client.ts --state pc1.json export --format stl
 *   npx tsx tools/desktop-client.ts --state pc1.json claim-lite-key --key LITE-AAAA-0001
 *
 * An account with a second factor signs in in two steps: `--code` (the authenticator app's current code) or
 * `--recovery-code` answers the second; without either, login exits 1 naming the account's methods.
 *
 * Prints the API's JSON answer on stdout. On an API error it prints the error body ({ messageKey,
 * message }) on stderr and exits 1; on a usage error it exits 2. The state file (one per simulated
 * computer) keeps the API address, the user's access token and the device token between calls.
 */
import { runDesktopCommand } from './desktop-commands.js';

const { code, stdout, stderr } = await runDesktopCommand(process.argv.slice(2));
process.stdout.write(stdout);
process.stderr.write(stderr);
process.exitCode = code;
