/** An error that maps to an HTTP response: body is always {"error": message, ...extra}. */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly extra: Record<string, unknown> = {},
    /** Response headers besides the JSON body's (Retry-After of a 503). */
    public readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
  body(): Record<string, unknown> {
    return { error: this.message, ...this.extra };
  }
}
