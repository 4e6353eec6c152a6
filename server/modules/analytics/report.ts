import type { ExportFormat } from '../../../contract/licensing.js';

/**
 * What the desktop application and the portal report: a sign-up (the users module's job), a session, an
 * export, a launch and an activation (the devices module), a sale (billing's webhook, a Lite key's claim).
 * Every report but a sign-up carries the client's id, so a retried report is stored and counted once.
 */
export type Report =
  | { kind: 'signup'; userId: string; at: Date }
  | {
      kind: 'session';
      userId: string;
      id: string;
      channel: string;
      seatId: string | null;
      startedAt: Date;
      endedAt: Date;
      lengthSeconds: number;
      playedSeconds: number;
      suspicious: boolean;
    }
  | { kind: 'export'; userId: string; id: string; channel: string; format: ExportFormat; exportedAt: Date }
  | { kind: 'launch'; userId: string; id: string; channel: string; at: Date }
  | { kind: 'activation'; userId: string; id: string; channel: string; at: Date }
  | { kind: 'sale'; userId: string; id: string; channel: string; at: Date };

export type ReportOf<K extends Report['kind']> = Extract<Report, { kind: K }>;
