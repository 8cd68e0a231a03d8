#!/usr/bin/python3
"""An AT-SPI client for tests: what a screen reader sees, through libatspi (at-spi2-core's own
client library, the one Orca uses), printed as JSON on standard output.

    atspi-client.py tree [--depth N]   the desktop: each application and its objects, N levels
                                       deep (name, role, states, interfaces, child count,
                                       extents in window coordinates)
    atspi-client.py action NAME [--do ACTION]
                                       the first object named NAME under any application: its
                                       actions, and what doing ACTION (by default the first)
                                       answered
    atspi-client.py select NAME [INDEX] [--clear]
                                       selects child INDEX of the object named NAME (a list)
                                       if given, or clears its selection, then prints whether
                                       that was done, the first selected child's name, how
                                       many are selected, all their names in order, and the
                                       list's states
    atspi-client.py text NAME [--set TEXT] [--insert OFFSET TEXT] [--caret OFFSET]
                         [--select START END] [--pieces OFFSET] [--offset-at X Y]
                                       edits the text of the object named NAME as given (in
                                       that order), then prints its text, caret offset,
                                       character count and selections; with --pieces, what a
                                       reader reads at OFFSET (the pieces at, before and after
                                       it for each boundary, the strings, the attributes,
                                       where the character and its word are drawn); with
                                       --offset-at, the offset at that point (window
                                       coordinates)
    atspi-client.py component NAME [--at X Y]
                                       the object named NAME's extents in window and in
                                       parent coordinates; with --at, whether it contains
                                       the point (window coordinates) and the name of its
                                       innermost object there (null for none)
    atspi-client.py scroll-to NAME     asks the object named NAME to scroll itself into sight
    atspi-client.py value NAME [--set NUMBER]
                                       sets the value of the object named NAME (a slider) if
                                       asked, then prints its value interface: minimum,
                                       maximum, increment, current and text
    atspi-client.py listen TYPE... --count N [--timeout S] [--stream]
                                       prints "ready" once listening to the event TYPEs
                                       ("object:state-changed:focused"), then the first N events
                                       (type, detail1, source name and role) as one JSON list;
                                       with --stream, each event as a JSON line as it comes,
                                       until its standard input closes
    atspi-client.py keys --count N [--consume KEYSYM...] [--timeout S]
                                       prints "ready" once it listens to the keyboard as Orca
                                       does (a keystroke listener on the registry), then the
                                       first N key events (pressed, keysym, string, modifiers)
                                       as one JSON list; it consumes the keys named

A NAME of the form role:ROLE names the first object of that role ("role:list").

It connects through the session bus in DBUS_SESSION_BUS_ADDRESS (org.a11y.Bus.GetAddress), as
every AT-SPI client does. It exits 0 after printing, 2 when AT-SPI fails (the message on
standard error). NO_AT_BRIDGE keeps this process itself off the desktop.
"""
import argparse
import json
import os
import sys

os.environ["NO_AT_BRIDGE"] = "1"

import gi  # noqa: E402

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402


def describe(accessible, depth):
    """One object and, while depth lasts, its children."""
    node = {
        "name": accessible.get_name(),
        "role": accessible.get_role_name(),
        "childCount": accessible.get_child_count(),
    }
    states = accessible.get_state_set().get_states()
    node["states"] = sorted(s.value_nick for s in states)
    interfaces = accessible.get_interfaces()
    node["interfaces"] = sorted(interfaces) if interfaces else []
    attributes = accessible.get_attributes()
    if attributes:
        node["attributes"] = dict(attributes)
    if "Component" in node["interfaces"]:
        r = accessible.get_extents(Atspi.CoordType.WINDOW)
        node["extents"] = [r.x, r.y, r.width, r.height]
    if depth > 0:
        node["children"] = [
            describe(accessible.get_child_at_index(i), depth - 1) for i in range(node["childCount"])
        ]
    return node


class NotFound(Exception):
    """No object has the name asked for."""


def find(accessible, name):
    """The first object named `name` below `accessible`, depth first; NotFound without one."""
    def matches(child):
        if name.startswith("role:"):
            return child.get_role_name() == name[5:]
        return child.get_name() == name

    def search(parent):
        for i in range(parent.get_child_count()):
            child = parent.get_child_at_index(i)
            if matches(child):
                return child
            found = search(child)
            if found is not None:
                return found
        return None

    found = search(accessible)
    if found is None:
        raise NotFound(f"nothing named {name!r}")
    return found


def listen_for(types, count, timeout, stream=False):
    """The first `count` events of `types` (`run_listening`), one JSON line each as they come
    when `stream`."""
    events = []

    def heard(event):
        events.append({
            "type": event.type,
            "detail1": event.detail1,
            "detail2": event.detail2,
            "data": event.any_data if isinstance(event.any_data, str) else None,
            "name": event.source.get_name(),
            "role": event.source.get_role_name(),
        })
        if stream:
            print(json.dumps(events[-1]), flush=True)
        if len(events) >= count:
            Atspi.event_quit()

    listener = Atspi.EventListener.new(heard)
    for t in types:
        listener.register(t)
    return run_listening(events, timeout, stream)


def listen_to_keys(count, consume, timeout):
    """The first `count` key events (`run_listening`), consuming those whose keysym name is in
    `consume`."""
    events = []

    def heard(event, data=None):
        events.append({
            "pressed": event.type == Atspi.EventType.KEY_PRESSED_EVENT,
            "keysym": event.id,
            "keycode": event.hw_code,
            "string": event.event_string,
            "modifiers": event.modifiers,
            "isText": bool(event.is_text),
        })
        if len(events) >= count:
            GLib.idle_add(lambda: Atspi.event_quit() and False)
        return event.event_string in consume

    listener = Atspi.DeviceListener.new(heard, None)
    kinds = (1 << Atspi.EventType.KEY_PRESSED_EVENT) | (1 << Atspi.EventType.KEY_RELEASED_EVENT)
    sync = Atspi.KeyListenerSyncType.SYNCHRONOUS | Atspi.KeyListenerSyncType.CANCONSUME
    for mask in range(16):  # every combination of Shift, Shift Lock, Control and Alt
        Atspi.register_keystroke_listener(listener, None, mask, kinds, sync)
    return run_listening(events, timeout, stream=False)


def run_listening(events, timeout, stream):
    """Prints "ready", runs libatspi's loop until a listener quits it or `timeout` seconds pass
    (or, when `stream`, standard input closes), then prints `events` as one JSON list unless
    they were streamed; 3 when time ran out."""
    print("ready", flush=True)
    timed_out = []

    def give_up():
        timed_out.append(True)
        Atspi.event_quit()
        return False

    GLib.timeout_add(int(timeout * 1000), give_up)
    if stream:
        # The bench holds the other end: when it ends, however it ends, this ends too.
        def stdin_closed(fd, condition):
            if condition & GLib.IO_HUP or not os.read(fd, 4096):
                Atspi.event_quit()
                return False
            return True

        GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP, stdin_closed)
    Atspi.event_main()
    if not stream:
        print(json.dumps(events), flush=True)
    return 3 if timed_out else 0


def pieces(text, offset):
    """What a reader asks of a text at OFFSET: the piece at, before and after it for each
    boundary type, the string for each granularity (each [text, start, end]), the
    attributes, and where the character and its word are drawn (window coordinates)."""
    def triple(r):
        return [r.content, r.start_offset, r.end_offset]
    boundaries = {t.value_nick: t for t in [
        Atspi.TextBoundaryType.CHAR, Atspi.TextBoundaryType.WORD_START, Atspi.TextBoundaryType.WORD_END,
        Atspi.TextBoundaryType.SENTENCE_START, Atspi.TextBoundaryType.SENTENCE_END,
        Atspi.TextBoundaryType.LINE_START, Atspi.TextBoundaryType.LINE_END]}
    granularities = {g.value_nick: g for g in [
        Atspi.TextGranularity.CHAR, Atspi.TextGranularity.WORD, Atspi.TextGranularity.SENTENCE,
        Atspi.TextGranularity.LINE, Atspi.TextGranularity.PARAGRAPH]}
    run, start, end = text.get_attribute_run(offset, True)
    return {
        "at": {n: triple(text.get_text_at_offset(offset, t)) for n, t in boundaries.items()},
        "before": {n: triple(text.get_text_before_offset(offset, t)) for n, t in boundaries.items()},
        "after": {n: triple(text.get_text_after_offset(offset, t)) for n, t in boundaries.items()},
        "string": {n: triple(text.get_string_at_offset(offset, g)) for n, g in granularities.items()},
        "defaults": dict(text.get_default_attributes()),
        "run": [dict(run), start, end],
        "characterExtents": extents(text.get_character_extents(offset, Atspi.CoordType.WINDOW)),
        "wordExtents": extents(text.get_range_extents(
            text.get_string_at_offset(offset, Atspi.TextGranularity.WORD).start_offset,
            text.get_string_at_offset(offset, Atspi.TextGranularity.WORD).end_offset, Atspi.CoordType.WINDOW)),
    }


def extents(r):
    """A rectangle as [x, y, width, height]."""
    return [r.x, r.y, r.width, r.height]


def main():
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    tree = commands.add_parser("tree")
    tree.add_argument("--depth", type=int, default=1)
    action = commands.add_parser("action")
    action.add_argument("name")
    action.add_argument("--do", dest="perform")
    select = commands.add_parser("select")
    select.add_argument("name")
    select.add_argument("index", type=int, nargs="?")
    select.add_argument("--clear", action="store_true")
    keys = commands.add_parser("keys")
    keys.add_argument("--count", type=int, required=True)
    keys.add_argument("--consume", nargs="*", default=[])
    keys.add_argument("--timeout", type=float, default=20)
    text = commands.add_parser("text")
    text.add_argument("name")
    text.add_argument("--set")
    text.add_argument("--insert", nargs=2, metavar=("OFFSET", "TEXT"))
    text.add_argument("--caret", type=int)
    text.add_argument("--select", nargs=2, type=int, metavar=("START", "END"))
    text.add_argument("--pieces", type=int, metavar="OFFSET")
    text.add_argument("--offset-at", nargs=2, type=int, metavar=("X", "Y"))
    component = commands.add_parser("component")
    component.add_argument("name")
    component.add_argument("--at", nargs=2, type=int, metavar=("X", "Y"))
    scroll = commands.add_parser("scroll-to")
    scroll.add_argument("name")
    value = commands.add_parser("value")
    value.add_argument("name")
    value.add_argument("--set", type=float)
    listen = commands.add_parser("listen")
    listen.add_argument("types", nargs="+")
    listen.add_argument("--count", type=int, required=True)
    listen.add_argument("--timeout", type=float, default=20)
    listen.add_argument("--stream", action="store_true")
    args = parser.parse_args()
    try:
        Atspi.init()
        desktop = Atspi.get_desktop(0)
        if args.command == "tree":
            print(json.dumps(describe(desktop, args.depth)))
        elif args.command == "action":
            found = find(desktop, args.name)
            names = [found.get_action_name(i) for i in range(found.get_n_actions())]
            if args.perform is not None and args.perform not in names:
                raise NotFound(f"{args.name!r} has no action {args.perform!r} (it has {names})")
            index = names.index(args.perform) if args.perform is not None else 0
            print(json.dumps({"actions": names, "done": found.do_action(index) if names else False}))
        elif args.command == "select":
            found = find(desktop, args.name)
            done = None
            if args.index is not None:
                done = found.select_child(args.index)
            if args.clear:
                done = found.clear_selection()
            count = found.get_n_selected_children()
            names = [found.get_selected_child(i).get_name() for i in range(count)]
            print(json.dumps({
                "done": done,
                "selected": names[0] if names else None,
                "count": count,
                "all": names,
                "states": sorted(s.value_nick for s in found.get_state_set().get_states()),
            }))
        elif args.command == "text":
            found = find(desktop, args.name)
            if args.set is not None:
                found.set_text_contents(args.set)
            if args.insert is not None:
                offset, inserted = int(args.insert[0]), args.insert[1]
                found.insert_text(offset, inserted, len(inserted))
            if args.caret is not None:
                found.set_caret_offset(args.caret)
            answer = {}
            if args.select is not None:
                answer["selected"] = found.set_selection(0, args.select[0], args.select[1])
            count = found.get_character_count()
            answer.update({
                "text": found.get_text(0, -1),
                "caret": found.get_caret_offset(),
                "count": count,
                "selections": [
                    [r.start_offset, r.end_offset]
                    for r in (found.get_selection(i) for i in range(found.get_n_selections()))
                ],
            })
            if args.pieces is not None:
                answer.update(pieces(found, args.pieces))
            if args.offset_at is not None:
                x, y = args.offset_at
                answer["offsetAt"] = found.get_offset_at_point(x, y, Atspi.CoordType.WINDOW)
            print(json.dumps(answer))
        elif args.command == "component":
            found = find(desktop, args.name)
            answer = {}
            for nick, kind in [("window", Atspi.CoordType.WINDOW), ("parent", Atspi.CoordType.PARENT)]:
                r = found.get_extents(kind)
                answer[nick] = [r.x, r.y, r.width, r.height]
            if args.at is not None:
                x, y = args.at
                answer["contains"] = found.contains(x, y, Atspi.CoordType.WINDOW)
                under = found.get_accessible_at_point(x, y, Atspi.CoordType.WINDOW)
                answer["at"] = under.get_name() if under else None
            print(json.dumps(answer))
        elif args.command == "scroll-to":
            found = find(desktop, args.name)
            print(json.dumps({"scrolled": found.scroll_to(Atspi.ScrollType.ANYWHERE)}))
        elif args.command == "value":
            found = find(desktop, args.name)
            answer = {}
            # Through the Value interface by name: Text has a get_text of its own.
            if args.set is not None:
                answer["set"] = Atspi.Value.set_current_value(found, args.set)
            answer.update({
                "minimum": Atspi.Value.get_minimum_value(found),
                "maximum": Atspi.Value.get_maximum_value(found),
                "increment": Atspi.Value.get_minimum_increment(found),
                "current": Atspi.Value.get_current_value(found),
                "text": Atspi.Value.get_text(found),
            })
            print(json.dumps(answer))
        elif args.command == "listen":
            return listen_for(args.types, args.count, args.timeout, args.stream)
        elif args.command == "keys":
            return listen_to_keys(args.count, set(args.consume), args.timeout)
    except NotFound as error:
        print(f"atspi-client.py: {error}", file=sys.stderr)
        return 1
    except Exception as error:  # libatspi raises GLib.Error for a dead app or a bad reply
        print(f"atspi-client.py: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
