#!/usr/bin/env python3
"""Prints the suites that held a `swift test` run longest, from its event stream
(`swift test --event-stream-output-path FILE --event-stream-version 0`).

Swift Testing starts every test at once and runs those isolated to the main actor one at a
time, so a test's own start-to-end time includes its wait for the main actor. The run is read
instead as a sequence of finishes (each test case of a parameterized test, each other test), and
each finish is charged from the later of its own start and the finish before it: the time the
run spent finishing it. A suite's figure is its finishes' sum; the figures add up to the run.
They are approximate: an end is reported when a thread of the cooperative pool takes it up, so
ends can bunch up behind busy threads and a stretch of work be charged to the test that
finished after it. Read the list as where to look; a profile says what the time is.

Usage: slowest-suites.py EVENTS.jsonl [COUNT]
"""
import json
import sys


def main() -> int:
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    path = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) == 3 else 10
    functions, starts, ends = set(), {}, {}
    # Finishes: (end, start, suite) of each test case of a parameterized test and of each test
    # without cases of its own.
    case_starts: dict[tuple[str, str], float] = {}
    finishes: list[tuple[float, float, str]] = []
    tests_with_cases: set[str] = set()
    try:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as e:
                    print(f"{path}:{number}: not JSON ({e.msg})", file=sys.stderr)
                    return 1
                payload = record.get("payload", {})
                kind = payload.get("kind")
                if record.get("kind") == "test" and kind == "function":
                    functions.add(payload["id"])
                elif record.get("kind") == "event" and kind in ("testStarted", "testEnded"):
                    table = starts if kind == "testStarted" else ends
                    table[payload["testID"]] = payload["instant"]["absolute"]
                elif record.get("kind") == "event" and kind in ("testCaseStarted", "testCaseEnded"):
                    test = payload["testID"]
                    key = (test, payload.get("_testCase", {}).get("id", ""))
                    at = payload["instant"]["absolute"]
                    if kind == "testCaseStarted":
                        case_starts[key] = at
                    elif key in case_starts:
                        tests_with_cases.add(test)
                        finishes.append((at, case_starts[key], test.split("/")[0]))
    except OSError as e:
        print(f"{path}: cannot read ({e.strerror})", file=sys.stderr)
        return 1
    for test in functions:
        if test in ends and test in starts and test not in tests_with_cases:
            finishes.append((ends[test], starts[test], test.split("/")[0]))
    finishes.sort()
    if not finishes:
        print(f"{path}: no test ended in this event stream", file=sys.stderr)
        return 1
    suites: dict[str, list[float]] = {}
    previous = min(start for _, start, _ in finishes)
    for end, start, suite in finishes:
        held = end - max(start, previous)
        previous = max(previous, end)
        entry = suites.setdefault(suite, [0.0, 0])
        entry[0] += max(0.0, held)
        entry[1] += 1
    total = finishes[-1][0] - min(start for _, start, _ in finishes)
    print(
        f"The {count} suites that held the run longest, approximately (of {len(suites)}; "
        f"the run took {total:.1f} s):"
    )
    for suite, (seconds, tests) in sorted(suites.items(), key=lambda s: -s[1][0])[:count]:
        print(f"  {seconds:7.1f} s  {suite} ({tests} finish{'es' if tests != 1 else ''})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
