/*
 * libweston 10's input entry points. They are exported by libweston-10.so but declared only in
 * weston's internal headers (libweston/backend.h and libweston/libweston-internal.h), which
 * Debian's libweston-10-dev does not ship. The prototypes below are weston 10.0.x's exactly
 * (checked against the 10.0.1 binary: weston_seat_init_pointer and _touch return int there);
 * weston 11 changed several of them (struct weston_coord_global), hence the version pin.
 */
#ifndef SCROLLWAY_WESTON10_INTERNAL_H
#define SCROLLWAY_WESTON10_INTERNAL_H

#include <libweston/libweston.h>
#include <libweston/version.h>
#include <time.h>

#if WESTON_VERSION_MAJOR != 10
#error "WestonTestInput declares libweston 10's internal input API; other majors differ"
#endif

/* libweston/backend.h */
void notify_axis(struct weston_seat *seat, const struct timespec *time, struct weston_pointer_axis_event *event);
void notify_axis_source(struct weston_seat *seat, uint32_t source);
void notify_button(struct weston_seat *seat, const struct timespec *time, int32_t button,
                   enum wl_pointer_button_state state);
void notify_key(struct weston_seat *seat, const struct timespec *time, uint32_t key, enum wl_keyboard_key_state state,
                enum weston_key_state_update update_state);
void notify_keyboard_focus_in(struct weston_seat *seat, struct wl_array *keys,
                              enum weston_key_state_update update_state);
void notify_keyboard_focus_out(struct weston_seat *seat);
void notify_motion_absolute(struct weston_seat *seat, const struct timespec *time, double x, double y);
void notify_pointer_frame(struct weston_seat *seat);
/* x and y are global compositor coordinates; norm must be NULL for a device without ops. */
void notify_touch_normalized(struct weston_touch_device *device, const struct timespec *time, int touch_id, double x,
                             double y, const struct weston_point2d_device_normalized *norm, int touch_type);
void notify_touch_frame(struct weston_touch_device *device);
/* Only cancels an active grab; it sends nothing to clients and does not reset num_tp. */
void notify_touch_cancel(struct weston_touch_device *device);
void weston_output_damage(struct weston_output *output);
/* A backend's report that a monitor was plugged in or unplugged (remove_output). */
void weston_head_set_connection_status(struct weston_head *head, bool connected);

/* libweston/libweston-internal.h */
void weston_seat_init(struct weston_seat *seat, struct weston_compositor *ec, const char *seat_name);
void weston_seat_release(struct weston_seat *seat);
int weston_seat_init_pointer(struct weston_seat *seat);
int weston_seat_init_keyboard(struct weston_seat *seat, struct xkb_keymap *keymap);
int weston_seat_init_touch(struct weston_seat *seat);
struct weston_touch_device *weston_touch_create_touch_device(struct weston_touch *touch, const char *syspath,
                                                             void *backend_data,
                                                             const struct weston_touch_device_ops *ops);
void weston_touch_device_destroy(struct weston_touch_device *device);

#endif
