public import JukeCore

/// Why a game refused a command: the platform's refusal, which the server maps to HTTP.
public typealias GameError = RuleRefusal
