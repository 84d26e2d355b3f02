/**
 * Why a text or a number cannot be a listing field's value, as data: a kind and what saying it needs
 * (the field's label, the text, the limit). The rules (userInput.ts) and the readers (listingFields.ts)
 * return it; code decides on the kind, never on the words. This is the one place it is put into words,
 * in the two ways a seller reads it:
 * - next to the value, in a form, a cell, the grid or a dialog (`problemMessage`): "Price cannot be
 *   negative.", "Not a number: “abc”.";
 * - in an import report, where the field and the value come first (`valueProblemSentence`): "Price “-5”
 *   cannot be negative.", "Price “abc” is not a number.".
 */

export type ValueProblem =
  /** Nothing where a value is needed: "Enter a price." */
  | { kind: 'blank'; label: string }
  /** Nothing where a change by an amount is needed: "Enter an amount, like -2.50." */
  | { kind: 'blank-change'; example: string }
  /** Nothing where a percentage is needed: "Enter a percentage, like -5 or +10%." */
  | { kind: 'blank-percent' }
  /** A "+" before a new value (a change is not meant there): "Enter the new price itself, without “+”." */
  | { kind: 'plus-sign'; label: string }
  /** Text that is no number (`text` trimmed, as typed): "Not a number: “abc”." */
  | { kind: 'not-a-number'; text: string }
  /**
   * A decimal comma where decimals take a point (typed in the app, a comma CSV): "12,5". `pointed` is the
   * number written with a point ("12.5"): "Not a number: “12,5”. Write decimals with a point: 12.5."
   */
  | { kind: 'decimal-comma'; text: string; pointed: string }
  /** One separator with three digits after it, in a file whose numbers do not say which it is: "“1,299” could be…" */
  | { kind: 'ambiguous-separator'; text: string }
  /** A value that is no finite number (NaN, Infinity): "Price must be a number." */
  | { kind: 'not-finite'; label: string }
  /** "Price cannot be negative." */
  | { kind: 'negative'; label: string }
  /** A fraction of a cent: "Price has more than two decimals." */
  | { kind: 'too-many-decimals'; label: string }
  /** A fraction of a unit: "Quantity must be a whole number." */
  | { kind: 'not-whole'; label: string }
  /** 0 where only more is allowed: "Price must be more than 0." */
  | { kind: 'not-positive'; label: string }
  /** Beyond the field's largest value, `max` as a seller reads it: "Price must be at most $1,000,000.00." */
  | { kind: 'above-max'; label: string; max: string }
  /** A change by more than the field's largest value: "A change of at most $1,000,000.00 up or down." */
  | { kind: 'change-above-max'; max: string }
  /** "A percentage has at most two decimals." */
  | { kind: 'percent-decimals' }

export type ValueProblemKind = ValueProblem['kind']

/** A text in quotes, cut short when long: “abc”. */
const quoted = (text: string) => `“${text.length > 30 ? `${text.slice(0, 30)}…` : text}”`

/**
 * How a problem is said: `message` on its own; `predicate` when the words say something of the field
 * (or of the value) and read the same after "Price “-5”" in a sentence naming both.
 */
function said(problem: ValueProblem): { message: string; predicate?: string } {
  const aboutField = (label: string, predicate: string) => ({ message: `${label} ${predicate}`, predicate })
  switch (problem.kind) {
    case 'blank':
      return { message: `Enter a ${problem.label.toLowerCase()}.` }
    case 'blank-change':
      return { message: `Enter an amount, like ${problem.example}.` }
    case 'blank-percent':
      return { message: 'Enter a percentage, like -5 or +10%.' }
    case 'plus-sign':
      return { message: `Enter the new ${problem.label.toLowerCase()} itself, without “+”.` }
    case 'not-a-number':
      return { message: `Not a number: ${quoted(problem.text)}.`, predicate: 'is not a number.' }
    case 'decimal-comma':
      return {
        message: `Not a number: ${quoted(problem.text)}. Write decimals with a point: ${problem.pointed}.`,
        predicate: `is not a number: write decimals with a point (${problem.pointed}).`
      }
    case 'ambiguous-separator': {
      const predicate = 'could be a thousands separator or three decimals: write the number without a thousands separator (1299, or 1299,50 with cents).'
      return { message: `${quoted(problem.text)} ${predicate}`, predicate }
    }
    case 'not-finite':
      return aboutField(problem.label, 'must be a number.')
    case 'negative':
      return aboutField(problem.label, 'cannot be negative.')
    case 'too-many-decimals':
      return aboutField(problem.label, 'has more than two decimals.')
    case 'not-whole':
      return aboutField(problem.label, 'must be a whole number.')
    case 'not-positive':
      return aboutField(problem.label, 'must be more than 0.')
    case 'above-max':
      return aboutField(problem.label, `must be at most ${problem.max}.`)
    case 'change-above-max':
      return { message: `A change of at most ${problem.max} up or down.` }
    case 'percent-decimals':
      return { message: 'A percentage has at most two decimals.' }
  }
}

/** The problem as said next to the value: "Price has more than two decimals.", "Not a number: “abc”.". */
export function problemMessage(problem: ValueProblem): string {
  return said(problem).message
}

/** The message of a problem, or null for none (a rule's answer as the change set and zod schemas take it). */
export function problemMessageOrNull(problem: ValueProblem | null): string | null {
  return problem && problemMessage(problem)
}

/**
 * A field's problem with a value read from a file, as one sentence that names the field and the value
 * first, whatever the problem: "Price “12.345” has more than two decimals.", "Price “abc” is not a
 * number.", "Price “+5”: Enter the new price itself, without “+”.". `value` comes quoted by the caller.
 */
export function valueProblemSentence(label: string, value: string, problem: ValueProblem): string {
  const { message, predicate } = said(problem)
  return predicate ? `${label} ${value} ${predicate}` : `${label} ${value}: ${message}`
}
