/**
 * How Seller Desk says an instant to a seller, wherever it is said (the window's formatTime, a message
 * the core words): the date, the time to the minute, and the zone named, so a time is never ambiguous
 * ("Nov 19, 2026, 2:03 PM GMT+1").
 */
export const DATE_TIME_WORDS: Readonly<Intl.DateTimeFormatOptions> = Object.freeze({
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short'
})
