import Foundation
import JukeCore
import Storage
import Testing

@testable import JukePlatform

/// The Subsonic API's rules, without a server: the envelope in both formats, which
/// credentials a request presents, versions, the legacy token, ids and list types.
@Suite(.timeLimit(.minutes(5))) struct SubsonicRulesTests {
    @Test func envelopeInXMLAndJSON() throws {
        var genre = SubsonicElement()
        genre.add("songCount", 2)
        genre.add("albumCount", 1)
        genre.text = "Rock & Roll <\"live\">"
        var genres = SubsonicElement()
        genres.add("genre", list: [genre])
        let ok = SubsonicEnvelope(body: .init(name: "genres", content: .one(genres)), serverVersion: "9.9")
        #expect(
            ok.render(.xml)
                == #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
                + #"<subsonic-response xmlns="http://subsonic.org/restapi" status="ok" version="1.16.1" type="juke" serverVersion="9.9" openSubsonic="true">"#
                + #"<genres><genre songCount="2" albumCount="1">Rock &amp; Roll &lt;&quot;live&quot;&gt;</genre></genres></subsonic-response>"#)
        let json = try #require(JSONSerialization.jsonObject(with: Data(ok.render(.json).utf8)) as? [String: Any])
        let response = try #require(json["subsonic-response"] as? [String: Any])
        #expect(response["status"] as? String == "ok" && response["version"] as? String == "1.16.1" && response["type"] as? String == "juke")
        #expect(response["openSubsonic"] as? Bool == true && response["serverVersion"] as? String == "9.9")
        let list = try #require((response["genres"] as? [String: Any])?["genre"] as? [[String: Any]])
        #expect(list.first?["value"] as? String == "Rock & Roll <\"live\">" && list.first?["songCount"] as? Int == 2)

        let failed = SubsonicEnvelope(error: .init(.notFound, "Album not found."), serverVersion: "9.9")
        #expect(
            failed.render(.xml).hasSuffix(
                #"status="failed" version="1.16.1" type="juke" serverVersion="9.9" openSubsonic="true"><error code="70" message="Album not found."/></subsonic-response>"#
            ))
        #expect(failed.render(.json).contains(#""error":{"code":70,"message":"Album not found."}"#))
        // An empty list is an empty JSON array (clients index it), no XML element at all.
        var empty = SubsonicElement()
        empty.add("album", list: [])
        #expect(
            SubsonicEnvelope(body: .init(name: "albumList2", content: .one(empty)), serverVersion: "1").render(.json).contains(#""albumList2":{"album":[]}"#))
        #expect(SubsonicEnvelope(body: .init(name: "albumList2", content: .one(empty)), serverVersion: "1").render(.xml).contains("<albumList2></albumList2>"))
    }

    @Test func textThatXMLCannotHoldIsLeftOutAndJSONIsEscaped() {
        #expect(SubsonicRenderer.xmlEscaped("a\u{1}b\tc") == "ab&#9;c")
        #expect(SubsonicRenderer.jsonString("a\u{1}\"\\\n") == #""a\u0001\"\\\n""#)
    }

    @Test func credentialsAreReadByTheProtocolsRules() throws {
        func read(_ query: String) -> Result<SubsonicCredentials, SubsonicError> {
            Result { () throws(SubsonicError) in try SubsonicCredentials.read(SubsonicParameters(encoded: query)) }
        }
        #expect(read("apiKey=k1") == .success(.apiKey("k1")))
        #expect(read("u=ann&t=ABCDEF&s=salt") == .success(.token(username: "ann", token: "abcdef", salt: "salt")))
        #expect(read("u=ann&p=pass+word") == .success(.password(username: "ann", password: "pass word")))
        #expect(read("u=ann&p=enc:736563726574") == .success(.password(username: "ann", password: "secret")))
        #expect(read("u=ann&p=enc:7g").code == .wrongCredentials)
        #expect(read("apiKey=k1&u=ann").code == .conflictingMechanisms)
        #expect(read("apiKey=k1&t=x&s=y").code == .conflictingMechanisms)
        #expect(read("u=ann&p=x&t=y&s=z").code == .conflictingMechanisms)
        #expect(read("").code == .missingParameter)
        #expect(read("u=ann").code == .missingParameter)
        #expect(read("u=ann&t=abc").code == .missingParameter)
        #expect(read("apiKey=").code == .invalidAPIKey)
    }

    @Test func theLegacyTokenIsTheMD5OfTheAppPasswordAndSalt() {
        // Subsonic's own example: password "sesame", salt "c19b2d".
        #expect(AppPasswordCheck.md5Hex("sesamec19b2d") == "26719a1196d2a940705a59634eb18eab")
        #expect(AppPasswordCheck.matches(.token(username: "a", token: "26719a1196d2a940705a59634eb18eab", salt: "c19b2d"), appPassword: "sesame"))
        #expect(!AppPasswordCheck.matches(.token(username: "a", token: "26719a1196d2a940705a59634eb18eab", salt: "c19b2e"), appPassword: "sesame"))
        #expect(AppPasswordCheck.matches(.password(username: "a", password: "sesame"), appPassword: "sesame"))
        #expect(!AppPasswordCheck.matches(.password(username: "a", password: "sesam"), appPassword: "sesame"))
        #expect(!AppPasswordCheck.matches(.apiKey("sesame"), appPassword: "sesame"))
        let made = AppPasswordCheck.generate()
        #expect(made.count == 24 && made != AppPasswordCheck.generate())
    }

    @Test func appPasswordsAreSealedAndOpenOnlyWithTheirSecret() throws {
        let seal = AppPasswordSeal(secret: Data(repeating: 7, count: 32))
        let sealed = try seal.seal("sesame")
        #expect(!sealed.contains("sesame"))
        #expect(seal.open(sealed) == "sesame")
        #expect(AppPasswordSeal(secret: Data(repeating: 8, count: 32)).open(sealed) == nil)
        #expect(seal.open("not base64!") == nil)
    }

    @Test func versions() {
        func code(_ v: String?) -> SubsonicError.Code? {
            do { try SubsonicVersion.check(v) } catch { return error.code }
            return nil
        }
        #expect(code("1.16.1") == nil && code("1.2.0") == nil && code("1.13") == nil)
        #expect(code(nil) == .missingParameter)
        #expect(code("1.17.0") == .serverMustUpgrade && code("2.0.0") == .serverMustUpgrade)
        #expect(code("0.9.0") == .clientMustUpgrade)
        #expect(code("banana") == .generic)
    }

    @Test func idsCarryTheirKind() {
        let track = TrackID()
        #expect(SubsonicID(SubsonicID.track(track).text) == .track(track))
        #expect(SubsonicID("al-" + track.description) == .album(AlbumID(rawValue: track.rawValue)))
        #expect(SubsonicID("xx-" + track.description) == nil && SubsonicID("tr-nope") == nil && SubsonicID("") == nil)
    }

    @Test func indexLetters() {
        #expect(SubsonicItems.indexLetter("The Beatles") == "B")
        #expect(SubsonicItems.indexLetter("Édith Piaf") == "E")
        #expect(SubsonicItems.indexLetter("2Pac") == "#")
        #expect(SubsonicItems.indexLetter("A") == "A")
    }

    @Test func albumListTypesMapOntoTheCatalogsOrders() throws {
        func order(_ query: String) throws -> LibraryStore.AlbumOrder? {
            guard case .query(let q) = try ListEndpoints.albumList(SubsonicParameters(encoded: query)) else { return nil }
            return q.order
        }
        #expect(try order("type=newest") == .newest)
        #expect(try order("type=frequent") == .frequent)
        #expect(try order("type=recent") == .recent)
        #expect(try order("type=random") == .random)
        #expect(try order("type=alphabeticalByName") == .name)
        #expect(try order("type=alphabeticalByArtist") == .artist)
        #expect(try order("type=byYear&fromYear=1990&toYear=1980") == .year)
        #expect(try order("type=byGenre&genre=Rock") == .name)
        #expect(try order("type=starred") == nil)
        #expect(throws: SubsonicError.missing("type")) { try ListEndpoints.albumList(SubsonicParameters(encoded: "")) }
        #expect(throws: SubsonicError.missing("fromYear")) { try ListEndpoints.albumList(SubsonicParameters(encoded: "type=byYear")) }
        #expect(throws: SubsonicError.missing("genre")) { try ListEndpoints.albumList(SubsonicParameters(encoded: "type=byGenre")) }
        #expect((try? ListEndpoints.albumList(SubsonicParameters(encoded: "type=nope"))) == nil)
        #expect((try? ListEndpoints.albumList(SubsonicParameters(encoded: "type=newest&size=501"))) == nil)
        #expect((try? ListEndpoints.albumList(SubsonicParameters(encoded: "type=newest&size=abc"))) == nil)
    }

    @Test func searchQueriesInQuotesAreTheirWords() {
        #expect(SearchEndpoints.words(#""""#) == "")
        #expect(SearchEndpoints.words(nil) == "")
        #expect(SearchEndpoints.words(#""abba""#) == "abba")
        #expect(SearchEndpoints.words(" abba ") == "abba")
    }

    @Test func credentialsNeverReachTheLog() {
        #expect(
            RedactedRequestLog<JukeRequestContext>.redacted("/rest/ping.view?u=ann&p=secret&t=tok&s=salt&apiKey=key&v=1.16.1")
                == "/rest/ping.view?u=ann&p=REDACTED&t=REDACTED&s=REDACTED&apiKey=REDACTED&v=1.16.1")
        #expect(RedactedRequestLog<JukeRequestContext>.redacted("/rest/ping") == "/rest/ping")
        #expect(RedactedRequestLog<JukeRequestContext>.redacted("/x?APIKEY=a&%70=b") == "/x?APIKEY=REDACTED&%70=REDACTED")
    }
}

extension Result where Failure == SubsonicError {
    /// The refusal's code, or nil for a success.
    var code: SubsonicError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}
