import ServiceLifecycle

/// Closes the radio relays' station connections when the server stops: they live as long as
/// someone listens, and a listener's stream never ends by itself.
struct RadioRelayService: Service {
    let relays: RadioRelays

    func run() async {
        try? await gracefulShutdown()
        await relays.shutdown()
    }
}
