@testable import Ferry
import Foundation
import Testing

/// Ferry keeps instants as ``Moment``s (a `Duration` since an origin) and shows `ContinuousClock.Instant`: the two
/// must convert both ways without losing anything, and order and subtract the same way.
@Suite struct MomentTests {
    @Test func anInstantSurvivesTheRoundTrip() {
        let now = ContinuousClock.now
        for offset: Duration in [.zero, .nanoseconds(1), .seconds(-3600), .seconds(86_400 * 365), .milliseconds(1.5)] {
            let instant = now.advanced(by: offset)
            #expect(Moment(instant).instant == instant, "\(offset)")
        }
    }

    @Test func momentsOrderAndMeasureAsTheirInstantsDo() {
        let start = ContinuousClock.now
        let end = start.advanced(by: .milliseconds(250))
        let (first, second) = (Moment(start), Moment(end))
        #expect(first < second)
        #expect(first.duration(to: second) == start.duration(to: end))
        #expect((first + .milliseconds(250)) == second)
        #expect(Moment.now >= first)
    }

    @Test func aTimelineShowsTheInstantsItWasGiven() {
        let start = ContinuousClock.now
        let head = start.advanced(by: .milliseconds(20))
        let end = start.advanced(by: .milliseconds(30))
        var timeline = Timeline(
            startDate: .init(), requestStart: start, firstResponseByte: head, requestCompleted: end)
        #expect(
            timeline.requestStart == start && timeline.firstResponseByte == head && timeline.requestCompleted == end)
        #expect(timeline.latency == .milliseconds(20) && timeline.requestDuration == .milliseconds(30))
        timeline.serializationCompleted = end.advanced(by: .milliseconds(5))
        #expect(timeline.serializationDuration == .milliseconds(5) && timeline.totalDuration == .milliseconds(35))
        var attempt = Timeline.Attempt(
            attempt: 1, method: .get, url: .init(string: "http://a.test/")!, start: start, end: end)
        attempt.responseStart = head
        #expect(attempt.latency == .milliseconds(20) && attempt.duration == .milliseconds(30))
        attempt.queueWait = .milliseconds(5)
        #expect(attempt.sendStart == start.advanced(by: .milliseconds(5)) && attempt.latency == .milliseconds(15))
    }
}
