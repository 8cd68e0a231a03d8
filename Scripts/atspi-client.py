#!/usr/bin/python3
"""An AT-SPI client for tests: what a screen reader sees, through libatspi (at-spi2-core's own
client library, the one Orca uses), printed as JSON on standard output.

    atspi-client.py tree [--depth N]   the desktop: each application and its objects, N levels
                                       deep (name, role, states, interfaces, child count)

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
from gi.repository import Atspi  # noqa: E402


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
    if depth > 0:
        node["children"] = [
            describe(accessible.get_child_at_index(i), depth - 1) for i in range(node["childCount"])
        ]
    return node


def main():
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    tree = commands.add_parser("tree")
    tree.add_argument("--depth", type=int, default=1)
    args = parser.parse_args()
    try:
        Atspi.init()
        desktop = Atspi.get_desktop(0)
        if args.command == "tree":
            print(json.dumps(describe(desktop, args.depth)))
    except Exception as error:  # libatspi raises GLib.Error for a dead app or a bad reply
        print(f"atspi-client.py: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
