/** Raised for a request the upstream would refuse; the server answers with exactly this status and body. */
export class SimRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly contentType: 'text/plain' | 'application/json' = 'text/plain',
  ) {
    super(body);
  }
}
