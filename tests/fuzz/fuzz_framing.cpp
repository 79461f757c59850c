// Fuzz target: the HTTP/1.1 framing tracker (backend/http/httpframingtracker.h) that guards every connection before
// QHttpServer parses it. Input: byte 0 picks the limits, byte 1 the way the stream is cut into feeds, the rest is the
// byte stream a client sends. Invariants: the split into feeds does not change anything; a verdict other than Ok is
// final; requests are only counted once their bytes were fed; the body limit applied is one that was configured.
#include "fuzzcheck.h"
#include "http/httpframingtracker.h"

#include <array>
#include <cstdint>

namespace {

using Verdict = HttpFramingTracker::Verdict;

struct Limits
{
    qint64 maxBody;
    qsizetype maxHeader;
    bool withException;
    qint64 exceptionBody;
};

Limits limitsFrom(uint8_t config)
{
    static constexpr std::array<qint64, 8> bodies{0, 1, 5, 16, 100, 1000, 64 * 1024, 8 * 1024 * 1024};
    static constexpr std::array<qsizetype, 4> headers{1, 24, 200, 16 * 1024};
    const qint64 body = bodies[config & 7];
    return {body, headers[(config >> 3) & 3], (config & 0x20) != 0, body * 2 + 7};
}

HttpFramingTracker makeTracker(const Limits &limits)
{
    HttpFramingTracker::BodyLimitExceptions exceptions;
    if (limits.withException)
        exceptions.append({"PUT", "/api/v1/plans/catalogue", limits.exceptionBody});
    return HttpFramingTracker(limits.maxBody, limits.maxHeader, exceptions);
}

// The smallest request that can complete: a one-byte request line, its LF and the blank line's LF.
constexpr qint64 kSmallestRequest = 3;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const Limits limits = limitsFrom(data[0]);
    uint32_t cut = data[1];
    const QByteArrayView stream(reinterpret_cast<const char *>(data) + 2, qsizetype(size) - 2);

    HttpFramingTracker whole = makeTracker(limits);
    const Verdict wholeVerdict = whole.feed(stream);
    FUZZ_CHECK(whole.verdict() == wholeVerdict, "verdict() differs from what feed() returned");

    HttpFramingTracker pieces = makeTracker(limits);
    qsizetype fed = 0;
    Verdict previous = Verdict::Ok;
    qint64 previousCompleted = 0;
    while (fed < stream.size()) {
        cut = cut * 1103515245u + 12345u; // a small LCG: chunk sizes 1..64 chosen by byte 1
        const qsizetype length = std::min<qsizetype>(qsizetype(1 + ((cut >> 16) & 63)), stream.size() - fed);
        const Verdict verdict = pieces.feed(stream.sliced(fed, length));
        fed += length;
        FUZZ_CHECK(previous == Verdict::Ok || verdict == previous, "a final verdict changed");
        FUZZ_CHECK(pieces.completedRequests() >= previousCompleted, "completed requests went down");
        FUZZ_CHECK(pieces.completedRequests() * kSmallestRequest <= fed, "counted a request whose bytes were not fed");
        previous = verdict;
        previousCompleted = pieces.completedRequests();
    }

    FUZZ_CHECK(pieces.verdict() == wholeVerdict, "the split into feeds changed the verdict");
    FUZZ_CHECK(pieces.completedRequests() == whole.completedRequests(), "the split changed the request count");
    FUZZ_CHECK(pieces.isBetweenRequests() == whole.isBetweenRequests(), "the split changed the position");
    FUZZ_CHECK(pieces.lastBodyLimit() == whole.lastBodyLimit(), "the split changed the body limit");
    FUZZ_CHECK(whole.lastBodyLimit() == limits.maxBody ||
                   (limits.withException && whole.lastBodyLimit() == limits.exceptionBody),
               "a body limit that was never configured");
    FUZZ_CHECK(whole.maxBodyBytes() == limits.maxBody && whole.maxHeaderBytes() == limits.maxHeader,
               "the limits changed");
    if (wholeVerdict != Verdict::Ok)
        FUZZ_CHECK(!whole.isBetweenRequests(), "a rejected stream claims to sit between requests");

    // Between requests, a further bodiless request completes (if the header limit allows it) and leaves it there.
    if (wholeVerdict == Verdict::Ok && whole.isBetweenRequests()) {
        const QByteArray next = "GET / HTTP/1.1\r\n\r\n";
        const qint64 before = whole.completedRequests();
        const Verdict verdict = whole.feed(next);
        if (next.size() <= limits.maxHeader) {
            FUZZ_CHECK(verdict == Verdict::Ok, "a plain GET after a complete request was refused");
            FUZZ_CHECK(whole.completedRequests() == before + 1 && whole.isBetweenRequests(),
                       "a plain GET after a complete request was not counted");
        } else {
            FUZZ_CHECK(verdict == Verdict::HeadersTooLarge, "a header block over the limit was accepted");
        }
    }

    // The same stream fed in a rejected tracker's wake changes nothing.
    if (wholeVerdict != Verdict::Ok) {
        const qint64 completed = whole.completedRequests();
        FUZZ_CHECK(whole.feed(stream) == wholeVerdict && whole.completedRequests() == completed,
                   "a rejected tracker moved on");
    }
    return 0;
}
