import JukeCore
import Storage

/// The rules of a page of albums' parameters: which orders go with which filters, and the
/// order a filter implies when none is asked for.
enum AlbumListRequest {
    static func query(
        sort: String?, artistID: ArtistID?, genre: String?, fromYear: Int?, toYear: Int?, limit: Int, offset: Int, hasAfter: Bool
    ) throws(APIError) -> LibraryStore.AlbumQuery {
        if let genre, genre.isEmpty || genre.unicodeScalars.count > 100 {
            throw .badRequest("A genre has 1 to 100 characters.", field: "genre")
        }
        for (year, field) in [(fromYear, "from_year"), (toYear, "to_year")] {
            if let year, !(0...9999).contains(year) { throw .badRequest("\(field) must be between 0 and 9999.", field: field) }
        }
        let years: (from: Int, to: Int)? = fromYear == nil && toYear == nil ? nil : (fromYear ?? 0, toYear ?? 9999)
        if genre != nil, years != nil { throw .badRequest("Ask for a genre or a year range, not both.", field: "genre") }
        let implied: LibraryStore.AlbumOrder = genre != nil ? .name : years != nil ? .year : .artist
        guard let order = sort.map(LibraryStore.AlbumOrder.init(rawValue:)) ?? implied else {
            throw .badRequest("sort must be one of artist, name, year, newest, random, frequent, recent.", field: "sort")
        }
        if genre != nil, order != .name { throw .badRequest("A genre's albums come in name order.", field: "sort") }
        if years != nil, order != .year { throw .badRequest("A year range's albums come in year order.", field: "sort") }
        if order == .random, hasAfter || offset > 0 {
            throw .badRequest("A random page is new each time: it takes no after or offset.", field: hasAfter ? "after" : "offset")
        }
        return LibraryStore.AlbumQuery(order: order, artistID: artistID, genre: genre, years: years, limit: limit, offset: offset)
    }
}
