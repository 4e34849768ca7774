/// Where contacts' addresses are, found from their text (docs/contacts-web.md, "Maps from the
/// address"); listed in `Migrations.all` by version.
extension Migrations {
    static let geocoding = Migration(version: 17, name: "geocoding") { _ in
        [
            // Beside the typed `latitude`/`longitude`, never in them: typed coordinates win and the
            // geocoder never writes over them. `geocode_query` is the search (NominatimSearch's
            // key) the address is located by, or waits for; `geocoded_at` says when it was asked.
            "ALTER TABLE monica_addresses ADD COLUMN geocoded_latitude DOUBLE PRECISION",
            "ALTER TABLE monica_addresses ADD COLUMN geocoded_longitude DOUBLE PRECISION",
            "ALTER TABLE monica_addresses ADD COLUMN geocode_query TEXT",
            "ALTER TABLE monica_addresses ADD COLUMN geocoded_at BIGINT",
            // The geocoder's answers by search, shared by every account (public data), with no
            // trace of who asked. `found` 0: the geocoder knows no such place.
            """
            CREATE TABLE geocode_cache (
                query TEXT PRIMARY KEY,
                found BIGINT NOT NULL,
                latitude DOUBLE PRECISION,
                longitude DOUBLE PRECISION,
                asked_at BIGINT NOT NULL)
            """,
            // When the next request to the geocoder may go, for every server on this database.
            "CREATE TABLE geocoder_pace (id BIGINT PRIMARY KEY, next_request_at BIGINT NOT NULL)",
            "INSERT INTO geocoder_pace (id, next_request_at) VALUES (1, 0)",
        ]
    }
}
