import PostgresNIO

/// The usual batch of a TuneTrivia game on PostgreSQL, new answers and nothing else, as one
/// prepared statement over arrays. `TuneTriviaStore.commitApplied` builds its statement for
/// each batch, with a placeholder per token, guess and payload: PostgreSQL parsed and planned
/// every one of them (a quarter of its time at a thousand answers a second, in a profile).
/// This text never changes, so each connection prepares it once. It does what the built
/// statement does for such a batch: bumps the version only if it is still `version` and every
/// token is valid, then inserts the guesses and sends the payloads only if it did. The game's
/// stored state (its status among it) is unchanged in such a batch, so only the version and
/// the time are written to its row.
struct CommitAnswersStatement: PostgresPreparedStatement {
    static let sql = """
        WITH ok AS (SELECT COUNT(*) = cardinality($1::text[]) AS ok FROM auth_tokens WHERE expires_at > $2 AND token_hash = ANY($1::text[])), \
        v AS (UPDATE tunetrivia_sessions SET version = version + 1, updated_at = $2 \
        WHERE id = $3 AND version = $4 AND (SELECT ok FROM ok) RETURNING version), \
        inserted AS (INSERT INTO tunetrivia_guesses (round_id, player_id, session_id, data) \
        SELECT $5, x.p, $3, x.d FROM v, unnest($6::text[], $7::text[]) AS x(p, d)), \
        told AS (SELECT pg_notify($8, x.payload) FROM v, unnest($9::text[]) AS x(payload)) \
        SELECT (SELECT version FROM v) AS version, (SELECT ok FROM ok) AS tokens_valid, (SELECT COUNT(*) FROM told) AS told
        """
    typealias Row = (version: Int?, tokensValid: Bool)

    let tokens: [String]
    let now: Double
    let session: String
    let version: Int
    let round: String
    let players: [String]
    let data: [String]
    let channel: String
    let payloads: [String]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 9)
        bindings.append(tokens)
        bindings.append(now)
        bindings.append(session)
        bindings.append(version)
        bindings.append(round)
        bindings.append(players)
        bindings.append(data)
        bindings.append(channel)
        bindings.append(payloads)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let (version, valid, _) = try row.decode((Int?, Bool, Int).self)
        return (version, valid)
    }
}
