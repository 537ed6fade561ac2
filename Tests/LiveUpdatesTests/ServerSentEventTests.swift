import LiveUpdates
import NIOCore
import Testing

/// The event-stream framing every app's routes write, read as a browser's EventSource reads it.
@Suite(.timeLimit(.minutes(1))) struct ServerSentEventTests {
    @Test func aNamedEventIsItsNameItsDataAndABlankLine() {
        #expect(ServerSentEvent.event("state", data: #"{"a":1}"#).text == "event: state\ndata: {\"a\":1}\n\n")
        #expect(ServerSentEvent.message(event: nil, data: "x").text == "data: x\n\n")
        #expect(ServerSentEvent.event("deleted", data: "{}").buffer == ByteBuffer(string: "event: deleted\ndata: {}\n\n"))
    }

    /// A newline inside one `data:` field would end the field there and the rest would be
    /// read as a field of its own (or dropped): each line gets its own `data:`.
    @Test func eachLineOfTheDataIsAFieldOfItsOwn() {
        #expect(ServerSentEvent.event("text", data: "one\ntwo\r\nthree\rfour").text == "event: text\ndata: one\ndata: two\ndata: three\ndata: four\n\n")
        // An empty line and a trailing newline survive: the browser joins the fields with "\n".
        #expect(ServerSentEvent.message(event: nil, data: "a\n\nb\n").text == "data: a\ndata: \ndata: b\ndata: \n\n")
        #expect(ServerSentEvent.message(event: nil, data: "").text == "data: \n\n")
        #expect(ServerSentEvent.event("two\nlines", data: "x").text == "event: two lines\ndata: x\n\n")
    }

    @Test func commentsKeepTheConnectionOpenAndDispatchNothing() {
        #expect(ServerSentEvent.keepAlive.text == ": keep-alive\n\n")
        #expect(ServerSentEvent.comment("a\nb").text == ": a\n: b\n\n")
    }
}
