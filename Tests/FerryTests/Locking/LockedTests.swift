import Dispatch
import Synchronization
import Testing
import FerryLocking

// `Locked` here is FerryTests' copy of Sources/Ferry/Locking/Locked.swift (scripts/check-locks.sh keeps the copies
// identical). This file may name `Mutex`: it checks that the seam costs nothing over one.
@Suite("Locked, the lock seam")
struct LockedTests {
    @Test func concurrentIncrementsUnderTheLockAreNotLost() {
        // Given
        let counter = Locked(0)

        // When: 8 workers increment 10,000 times each, concurrently.
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }

        // Then
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test func withLockReturnsAndRethrowsWhatItsBodyDoes() throws {
        struct Refused: Error {}
        let names = Locked<[String]>([])
        let count = names.withLock { names in
            names.append("a")
            return names.count
        }
        #expect(count == 1)
        #expect(throws: Refused.self) { try names.withLock { _ throws(Refused) in throw Refused() } }
        #expect(names.withLock { $0 } == ["a"])
    }

    @Test func aNormalBuildStoresExactlyAMutex() {
        #if FERRY_SANITIZER_LOCKS
        // The sanitizer build: a reference to one object (pthread mutex and value), allocated once per lock.
        #expect(MemoryLayout<Locked<Int>>.size == MemoryLayout<AnyObject>.size)
        #else
        // Same size, stride and alignment as the Mutex it wraps: inline, nothing boxed, no allocation.
        #expect(MemoryLayout<Locked<[Int]>>.size == MemoryLayout<Mutex<[Int]>>.size)
        #expect(MemoryLayout<Locked<[Int]>>.stride == MemoryLayout<Mutex<[Int]>>.stride)
        #expect(MemoryLayout<Locked<[Int]>>.alignment == MemoryLayout<Mutex<[Int]>>.alignment)
        #endif
    }
}
