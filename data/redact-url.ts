/** A service's address as messages may show it: without its password (`postgres://svc:***@db/svc`). */
export const redactUrl = (url: string): string => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@')
