/**
 * What the registration mode adds to the sign-up page: the instance's
 * rules above the form with the box that agrees to them, the "why do you
 * want to join?" field of a request for approval, and the page saying an
 * account waits for the operator.
 */
import type { UserRow } from '../../data/index.js'
import { JOIN_NOTE_MAX } from '../../data/index.js'
import { esc, layout } from './layout.js'
import type { InstanceIdentity } from './oauth-pages.js'

/** How the form asks: whether the account will wait for approval, the rules to agree to, and what the visitor already gave. */
export interface SignupAsk {
  waits: boolean
  rules: string
  agreed?: boolean
  note?: string
}

// A line starting `-`, `*`, `•` or a number (`1.`, `2)`) is a rule of a list; any other line is a paragraph.
const ITEM = /^\s*(?:([-*•])|\d{1,3}[.)])\s+(.*)$/

/** The rules text as HTML, every part escaped: consecutive list lines make a list (numbered when they are), other lines paragraphs. */
export function rulesHtml(rules: string): string {
  const blocks: string[] = []
  let items: string[] = []
  let numbered = false
  const endList = () => {
    const tag = numbered ? 'ol' : 'ul'
    if (items.length > 0) blocks.push(`<${tag}>${items.map((i) => `<li>${esc(i)}</li>`).join('')}</${tag}>`)
    items = []
  }
  for (const line of rules.split(/\r?\n/)) {
    const item = ITEM.exec(line)
    if (item) {
      if (items.length === 0) numbered = item[1] === undefined
      items.push(item[2].trim())
      continue
    }
    endList()
    if (line.trim() !== '') blocks.push(`<p>${esc(line.trim())}</p>`)
  }
  endList()
  return blocks.join('')
}

export const signupTitle = (ask?: SignupAsk): string => (ask?.waits ? 'Request an account' : 'Create an account')

/** The rules above the form, when there are any. */
export const rulesSection = (ask?: SignupAsk): string =>
  ask && ask.rules !== ''
    ? `<section class="rules" aria-labelledby="rules-title"><h2 id="rules-title">The rules here</h2>${rulesHtml(ask.rules)}</section>`
    : ''

/** The fields under the password: the note for the operator (approval), the box agreeing to the rules (rules), then the button. */
export function signupEnd(ask?: SignupAsk): string {
  const note = ask?.waits
    ? `<label for="note">Why do you want to join? <span class="muted">(optional, for the operator)</span></label>` +
      `<textarea id="note" name="note" rows="3" maxlength="${JOIN_NOTE_MAX}" style="width:100%;box-sizing:border-box;font:inherit">${esc(ask.note ?? '')}</textarea>` +
      `<p class="muted">Your account waits until the operator lets you in.</p>`
    : ''
  const agree =
    ask && ask.rules !== ''
      ? `<label style="font-weight:400"><input type="checkbox" name="agree" value="yes" required${ask.agreed ? ' checked' : ''}> I agree to the rules</label>`
      : ''
  return `${note}${agree}<button type="submit">${ask?.waits ? 'Send request' : 'Create account'}</button>`
}

/** The end of a request for an account; it leads back to the instance's front page, where signing in will work once the operator agrees. */
export const waitingPage = (user: UserRow, instance: InstanceIdentity): string =>
  layout(
    'Your account waits for approval',
    `<h1>Thank you, @${esc(user.username)}</h1><p>Your account waits for the operator’s approval. ` +
      `Once they let you in, you can sign in from any app that uses this server; until then signing in says it still waits.</p>` +
      `<p><a href="/">Back to ${esc(instance.name)}</a></p>`,
  )
