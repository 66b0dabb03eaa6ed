/** Copilot CLI sessions with git-mem (sessions.ts). */
import { sessionTests } from './sessions.ts';

sessionTests('copilot');
