#!/usr/bin/env python3
"""Prints the suites that held a `swift test` run longest, from its event stream
(`swift test --event-stream-output-path FILE --event-stream-version 0`).

Swift Testing starts every test at once and runs those isolated to the main actor one at a
time, so a test's own start-to-end time includes its wait for the main actor. Each test is
charged instead from the later of its start and the end of the test that finished before it,
to its own end: the time the run spent finishing it. A suite's figure is its tests' sum.

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
                if record.get("kind") == "test" and payload.get("kind") == "function":
                    functions.add(payload["id"])
                elif record.get("kind") == "event" and payload.get("kind") in ("testStarted", "testEnded"):
                    table = starts if payload["kind"] == "testStarted" else ends
                    table[payload["testID"]] = payload["instant"]["absolute"]
    except OSError as e:
        print(f"{path}: cannot read ({e.strerror})", file=sys.stderr)
        return 1
    finished = sorted((ends[t], t) for t in functions if t in ends and t in starts)
    if not finished:
        print(f"{path}: no test ended in this event stream", file=sys.stderr)
        return 1
    suites: dict[str, list[float]] = {}
    previous = min(starts[t] for _, t in finished)
    for end, test in finished:
        held = end - max(starts[test], previous)
        previous = end
        suite = test.split("/")[0]
        entry = suites.setdefault(suite, [0.0, 0])
        entry[0] += max(0.0, held)
        entry[1] += 1
    total = finished[-1][0] - min(starts.values())
    print(f"The {count} suites that held the run longest (of {len(suites)}; the run took {total:.1f} s):")
    for suite, (seconds, tests) in sorted(suites.items(), key=lambda s: -s[1][0])[:count]:
        print(f"  {seconds:7.1f} s  {suite} ({tests} test{'s' if tests != 1 else ''})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
