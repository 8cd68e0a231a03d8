#!/usr/bin/python3
"""GTK4 peer for `scrollway bench`: the list scene rebuilt with stock GTK widgets.

A fullscreen window with a ScrolledWindow around a ListView of 100,000 rows (one to three
lines of text, alternating backgrounds), instrumented per painted frame through the
window's GdkFrameClock. Stats go out as one JSON object on SIGTERM/SIGINT or window close.

Run with the system python (/usr/bin/python3): a pyenv python has no `gi`.
    GSK_RENDERER=cairo /usr/bin/python3 gtk4-list.py --stats out.json
"""
import argparse
import json
import os
import signal
import sys
import time

# Before GTK loads: a Wayland client even if DISPLAY is set, and no accessibility bridge
# (the rig has no session bus, so GTK would only warn; Scrollway has no such bridge either).
# An empty value counts as unset: GTK warns once per widget about an empty GTK_A11Y.
for name, value in (("GDK_BACKEND", "wayland"), ("GTK_A11Y", "none")):
    if not os.environ.get(name):
        os.environ[name] = value

import gi  # noqa: E402

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

ROWS = 100_000

# Matches Scrollway's ListCell: 16 px sides, 10 px above and below, at least 44 px tall
# (min-height is the content box, so 24 + 2 * 10), DejaVu Sans 15 px, black text.
CSS = b"""
window, scrolledwindow, listview { background-color: white; }
listview > row { padding: 0; margin: 0; min-height: 0; background: none; }
listview label {
    font-family: "DejaVu Sans"; font-size: 15px; color: black;
    padding: 10px 16px; min-height: 24px;
}
label.row-even { background-color: rgb(250, 250, 252); }
label.row-odd { background-color: rgb(228, 236, 246); }
"""


def row_text(i):
    if i % 3 == 0:
        return f"Row {i + 1}"
    if i % 3 == 1:
        return f"Row {i + 1}\nA second line of text"
    return f"Row {i + 1}\nA second line of text\nand a third"


class Stats:
    """CPU spent per painted frame, and which frames fell inside the scrolling."""

    def __init__(self):
        self.frames = []  # (frame counter, main-thread ms, process ms, scrolled, monotonic s)
        self.scrolled_since_paint = False
        self.last_thread = time.thread_time()
        self.last_process = time.process_time()

    def on_value_changed(self, _adjustment):
        self.scrolled_since_paint = True

    def on_after_paint(self, clock):
        # Deltas since the previous painted frame: they include input handling, the
        # kinetic tick, layout and rendering, i.e. everything the frame cost.
        now_thread, now_process = time.thread_time(), time.process_time()
        self.frames.append((
            clock.get_frame_counter(),
            (now_thread - self.last_thread) * 1000.0,
            (now_process - self.last_process) * 1000.0,
            self.scrolled_since_paint,
            time.monotonic(),
        ))
        self.last_thread, self.last_process = now_thread, now_process
        self.scrolled_since_paint = False

    def report(self, width, height, gsk_renderer):
        scrolled = [i for i, f in enumerate(self.frames) if f[3]]
        window = self.frames[scrolled[0]:scrolled[-1] + 1] if scrolled else []
        return {
            "toolkit": "gtk4",
            "renderer": os.environ.get("GSK_RENDERER"),
            # What GTK actually uses: an unusable GSK_RENDERER falls back silently.
            "gskRenderer": gsk_renderer,
            "frames": len(self.frames),
            "scrollFrames": len(window),
            "mainCPUms": [round(f[1], 4) for f in window],
            "processCPUms": [round(f[2], 4) for f in window],
            "frameCounters": [f[0] for f in window],
            # When each frame was painted (CLOCK_MONOTONIC, s): the bench's late frames.
            "frameTimes": [round(f[4], 6) for f in window],
            "width": width,
            "height": height,
        }


class Peer:
    def __init__(self, stats_path):
        self.stats_path = stats_path
        self.stats = Stats()
        self.window = None
        self.written = False
        self.failed = False
        # No application id: nothing to register on a session bus the rig does not have.
        self.app = Gtk.Application(application_id=None)
        self.app.connect("activate", self.on_activate)

    def on_activate(self, app):
        display = Gdk.Display.get_default()
        if display is None:
            # Fail loudly rather than report an empty run as if it had been measured.
            sys.stderr.write("gtk4-list: cannot open a Wayland display "
                             "(check WAYLAND_DISPLAY and XDG_RUNTIME_DIR)\n")
            self.failed = True
            return
        provider = Gtk.CssProvider()
        provider.load_from_data(CSS)
        Gtk.StyleContext.add_provider_for_display(
            display, provider, Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)

        factory = Gtk.SignalListItemFactory()
        factory.connect("setup", self.on_setup)
        factory.connect("bind", self.on_bind)
        model = Gtk.StringList.new([row_text(i) for i in range(ROWS)])
        # NoSelection: rows are plain content, as in Scrollway's list (no selection styling).
        view = Gtk.ListView(model=Gtk.NoSelection(model=model), factory=factory)

        scrolled = Gtk.ScrolledWindow(child=view)  # kinetic scrolling is on by default
        scrolled.set_policy(Gtk.PolicyType.NEVER, Gtk.PolicyType.AUTOMATIC)
        scrolled.get_vadjustment().connect("value-changed", self.stats.on_value_changed)

        self.window = Gtk.ApplicationWindow(application=app, title="gtk4-list", child=scrolled)
        self.window.connect("realize", self.on_realize)
        self.window.connect("close-request", self.on_close_request)
        self.window.fullscreen()
        self.window.present()

    def on_realize(self, window):
        # The frame clock exists only once the window has a surface.
        window.get_frame_clock().connect("after-paint", self.stats.on_after_paint)

    @staticmethod
    def on_setup(_factory, item):
        label = Gtk.Label(xalign=0.0)
        item.set_child(label)

    @staticmethod
    def on_bind(_factory, item):
        label = item.get_child()
        label.set_text(item.get_item().get_string())
        label.set_css_classes(["row-even" if item.get_position() % 2 == 0 else "row-odd"])

    def write_stats(self):
        if self.written:
            return
        self.written = True
        w = h = 0
        renderer = None
        if self.window is not None:
            scale = self.window.get_scale_factor()
            w, h = self.window.get_width() * scale, self.window.get_height() * scale
            if self.window.get_renderer() is not None:
                renderer = type(self.window.get_renderer()).__name__  # e.g. CairoRenderer
        text = json.dumps(self.stats.report(w, h, renderer)) + "\n"
        if self.stats_path:
            # Write then rename, so a reader never sees half a file if we are killed mid-write.
            tmp = self.stats_path + ".tmp"
            with open(tmp, "w") as f:
                f.write(text)
            os.replace(tmp, self.stats_path)
        else:
            sys.stdout.write(text)
            sys.stdout.flush()

    def on_signal(self):
        # The rig sends SIGTERM and SIGKILLs a second later: write first, then leave.
        self.write_stats()
        self.app.quit()
        return GLib.SOURCE_REMOVE

    def on_close_request(self, _window):
        self.write_stats()
        return False  # let it close; the application ends with its last window

    def run(self):
        for sig in (signal.SIGTERM, signal.SIGINT):
            GLib.unix_signal_add(GLib.PRIORITY_HIGH, sig, self.on_signal)
        # Our own options are not GTK's: hand it only the program name.
        self.app.run([sys.argv[0]])
        if self.failed:
            return 1
        self.write_stats()
        return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stats", metavar="FILE", help="write the JSON stats here (default: stdout)")
    args = parser.parse_args()
    sys.exit(Peer(args.stats).run())


if __name__ == "__main__":
    main()
