#!/bin/sh
# weston's [autolaunch] runs a path without arguments: this passes the demo's.
exec /usr/local/bin/scrollway demo --kiosk --scene list
