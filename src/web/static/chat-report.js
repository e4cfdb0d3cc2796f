// Reporting a message or a member: a reason from the list and words of one's own, sent to the
// server's moderators (a DM's message to the instance's operators).
import { askChoice } from './chat-dialog.js';
import { toast } from './chat-ui.js';
import { api } from './common.js';
import { t } from './i18n.js';

const REASONS = ['spam', 'harassment', 'hate', 'violence', 'sexual', 'self_harm', 'impersonation', 'other'];

// path: the message's, or the member's (…/members/:uid), with /report to come.
export async function report(path, title) {
  const answer = await askChoice(title, t('report.reason'), REASONS.map((r) => [r, t(`report.reason.${r}`)]),
                                 { wordsLabel: t('report.words'), confirm: t('report.send'), text: t('report.text') });
  if (!answer) return;
  try {
    await api('POST', `${path}/report`, { reason: answer.choice, details: answer.words || null });
    toast(t('report.sent'));
  } catch (e) {
    toast(e);
  }
}
