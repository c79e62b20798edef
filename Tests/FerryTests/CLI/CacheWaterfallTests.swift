import Ferry
import Foundation
import Testing

@testable import FerryCLI

@Suite("The cache's decision in --timeline's waterfall")
struct CacheWaterfallTests {
    private static let url = URL(string: "http://localhost/catalog")!

    @Test func aHitIsALookupThenTheStoredBody() {
        let start = ContinuousClock.now
        let timeline = Timeline(
            startDate: Date(), requestStart: start, firstResponseByte: start + .milliseconds(2),
            requestCompleted: start + .milliseconds(4), cacheDecided: start + .milliseconds(2))

        let waterfall = Waterfall(timeline, redirects: 0, cache: .hit)

        #expect(waterfall.phases.map(\.label) == ["cache", "receiving"])
        #expect(waterfall.phases.map(\.note) == ["lookup → hit", "from the cache"])
        #expect(waterfall.phases.first?.end == .milliseconds(2))
    }

    @Test func aMissIsALookupBeforeTheWaitForTheServer() {
        let start = ContinuousClock.now
        let attempt = Timeline.Attempt(
            attempt: 1, method: .get, url: Self.url, start: start + .milliseconds(1),
            responseStart: start + .milliseconds(5), end: start + .milliseconds(8))
        let timeline = Timeline(
            startDate: Date(), requestStart: start, firstResponseByte: start + .milliseconds(5),
            requestCompleted: start + .milliseconds(8), attempts: [attempt], cacheDecided: start + .milliseconds(1))

        let waterfall = Waterfall(timeline, redirects: 0, cache: .miss)

        #expect(waterfall.phases.map(\.label) == ["cache", "waiting", "receiving"])
        #expect(waterfall.phases.first?.note == "lookup → miss")
        #expect(waterfall.phases[1].start == .milliseconds(1), "the wait starts when the lookup ended")
    }

    @Test func aRevalidationIsDecidedByTheAnswer() {
        let start = ContinuousClock.now
        let attempt = Timeline.Attempt(
            attempt: 1, method: .get, url: Self.url, start: start, responseStart: start + .milliseconds(5),
            end: start + .milliseconds(8), response: HTTPResponse(statusCode: 304, url: Self.url))
        let timeline = Timeline(
            startDate: Date(), requestStart: start, firstResponseByte: start + .milliseconds(5),
            requestCompleted: start + .milliseconds(8), attempts: [attempt], cacheDecided: start + .milliseconds(6))

        let waterfall = Waterfall(timeline, redirects: 0, cache: .revalidated)

        #expect(waterfall.phases.map(\.label) == ["waiting", "receiving", "cache"])
        #expect(waterfall.phases.last?.note == "answer → revalidated")
        #expect(waterfall.phases.last?.start == .milliseconds(5))
        #expect(waterfall.phases.last?.end == .milliseconds(6))
    }

    @Test func withoutACacheTheWaterfallIsUnchanged() {
        let start = ContinuousClock.now
        let timeline = Timeline(
            startDate: Date(), requestStart: start, firstResponseByte: start + .milliseconds(5),
            requestCompleted: start + .milliseconds(8))

        #expect(Waterfall(timeline, redirects: 0).phases.map(\.label) == ["waiting", "receiving"])
    }
}
