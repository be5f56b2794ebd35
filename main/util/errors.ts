/** An error that maps to an HTTP response: body is always {"error": message, ...extra}. */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
  body(): Record<string, unknown> {
    return { error: this.message, ...this.extra };
  }
}
