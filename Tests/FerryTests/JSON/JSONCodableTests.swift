import Ferry
import Foundation
import Testing

@Suite("JSON with Codable")
struct JSONCodableTests {
    private struct Event: Codable, Equatable {
        var name: String
        var payload: JSON
        var extra: JSON?
    }

    private struct Point: Codable, Equatable {
        var x: Int
        var y: Double
        var label: String?
    }

    @Test("JSON decodes inside a model with JSONDecoder")
    func decodesInsideModel() throws {
        let text =
            #"{"name":"push","payload":{"id":9007199254740993,"ok":true,"tags":["a",null],"ratio":0.5,"n":null}}"#
        let event = try JSONDecoder().decode(Event.self, from: Data(text.utf8))
        #expect(event.name == "push")
        #expect(event.payload["id"]?.int64Value == 9_007_199_254_740_993)
        #expect(
            event.payload == ["id": 9_007_199_254_740_993, "ok": true, "tags": ["a", nil], "ratio": 0.5, "n": nil])
        #expect(event.extra == nil)
    }

    @Test("JSON encodes inside a model with JSONEncoder and decodes back")
    func encodesInsideModel() throws {
        let event = Event(
            name: "e", payload: ["list": [1, 2.5, "x", false, nil], "nested": ["k": [:]]], extra: "note")
        let data = try JSONEncoder().encode(event)
        #expect(try JSONDecoder().decode(Event.self, from: data) == event)
        #expect(try JSON(parsing: data)["payload"]?["list"]?[1] == 2.5)
    }

    @Test("Every kind survives JSONEncoder and JSONDecoder on its own")
    func standaloneValues() throws {
        let values: [JSON] = [nil, true, 0, -5, 1.25, "s", [], [:], ["a": [1, ["b": nil]]]]
        for value in values {
            let data = try JSONEncoder().encode(value)
            #expect(try JSONDecoder().decode(JSON.self, from: data) == value)
        }
    }

    @Test("decode(_:) turns a JSON value into a model")
    func decodeModel() throws {
        let json: JSON = ["x": 3, "y": 4.5, "label": "p"]
        #expect(try json.decode(Point.self) == Point(x: 3, y: 4.5, label: "p"))
        #expect(try JSON.array([json, ["x": 1, "y": 2]]).decode([Point].self).count == 2)
        #expect(try JSON.string("fragment").decode(String.self) == "fragment")
    }

    @Test("decode(_:) uses the decoder it is given")
    func decodeWithDecoder() throws {
        struct Snake: Decodable, Equatable {
            var firstName: String
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let json: JSON = ["first_name": "Ada"]
        #expect(try json.decode(Snake.self, using: decoder) == Snake(firstName: "Ada"))
    }

    @Test("decode(_:) throws DecodingError when the shape does not fit")
    func decodeMismatch() {
        let json: JSON = ["x": "not a number", "y": 1]
        #expect(throws: DecodingError.self) { try json.decode(Point.self) }
    }

    @Test("JSONNumber is Codable on its own")
    func numberCodable() throws {
        let numbers = [JSONNumber(Int64.max), JSONNumber(1.5), JSONNumber(-3)]
        let data = try JSONEncoder().encode(numbers)
        #expect(String(decoding: data, as: UTF8.self) == "[9223372036854775807,1.5,-3]")
        #expect(try JSONDecoder().decode([JSONNumber].self, from: data) == numbers)
    }
}
