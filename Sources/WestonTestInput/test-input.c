/*
 * WestonTestInput: a weston 10 module that gives a headless compositor a seat ("default", with
 * pointer, keyboard and touch) and serves scrollway_test_input_v1, through which a test driver
 * injects input with its own timestamps and captures the output. It also serves two globals
 * weston 10 lacks, reporting their use through scrollway_test_input_v1: idle inhibition, and
 * text input (zwp_text_input_manager_v3), where the module plays the input method.
 *
 * Load it with weston --modules=/absolute/path/libWestonTestInput.so. weston aborts on options
 * it does not know, so the module reads its configuration from the environment:
 *   SCROLLWAY_RIG_PARENT_PID  if set, the compositor exits when that process is gone (so a test
 *                             that crashes never leaves a weston behind).
 *
 * Ownership: the module state lives for the compositor's lifetime and is freed by the
 * compositor's destroy listener; each capture belongs to its protocol resource.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <linux/input-event-codes.h>
#include <pixman.h>
#include <wayland-server.h>

#include <libweston-desktop/libweston-desktop.h>
#include <libweston/windowed-output-api.h>

#include "weston10-internal.h"
#include "scrollway-test-input-v1-server-protocol.h"
#include "idle-inhibit-unstable-v1-server-protocol.h"
#include "text-input-unstable-v3-server-protocol.h"

#define MAX_TOUCH_IDS 16

struct test_input {
	struct weston_compositor *compositor;
	struct weston_seat seat;
	struct weston_touch_device *touch_device;
	struct wl_global *global;
	struct wl_listener destroy_listener;
	struct wl_event_source *parent_watch;
	pid_t parent;
	/* Touch ids currently down, for the protocol's id checks; -1 = free slot. */
	int touch_ids[MAX_TOUCH_IDS];
	/* Captures waiting for the next repaint, and the output frame listener serving them. */
	struct wl_list captures;
	struct wl_listener frame_listener;
	bool frame_listening;
	/* The output frame_listener listens on, and the listener that stops it when that output is
	 * unplugged (remove_output): a destroyed output's frame signal must not keep our link. */
	struct weston_output *frame_output;
	struct wl_listener output_destroyed_listener;
	/* The cursor sprite view we took down with pointer_hide, to put back on the next motion. */
	struct weston_view *hidden_sprite;
	/* Holds the pointer off every surface after pointer_hide until the next pointer input
	 * (hidden_grab_interface); active while hiding. */
	struct weston_pointer_grab hidden_grab;
	bool hiding;
	/* zwp_idle_inhibit_manager_v1, which weston 10 lacks: served here so a client's inhibitor
	 * can be seen. The test_input resources (to tell of changes) and the inhibitors alive. */
	struct wl_global *idle_inhibit_global;
	struct wl_list test_input_resources;
	struct wl_list idle_inhibitor_resources;
	uint32_t idle_inhibitors;
	/* zwp_text_input_manager_v3, which weston 10 lacks: the module plays the input method. The
	 * text inputs clients made, the keyboard focus they follow, and what the driver has set for
	 * the next done. */
	struct wl_global *text_input_global;
	struct wl_list text_inputs;
	struct wl_listener keyboard_focus_listener;
	char *im_preedit;
	int32_t im_cursor_begin, im_cursor_end;
	char *im_commit;
	uint32_t im_delete_before, im_delete_after;
	bool im_has_preedit, im_has_delete;
};

/* The state a text input's requests set: pending until its commit makes it current. */
struct text_input_state {
	bool enabled;
	bool has_surrounding;
	char *surrounding;
	int32_t cursor, anchor;
	uint32_t hint, purpose;
	bool has_rectangle;
	int32_t x, y, width, height;
};

struct text_input {
	struct test_input *ti;
	struct wl_resource *resource;
	struct wl_list link;
	/* The surface the last enter named (NULL after leave), and the listener that clears it
	 * if that surface is destroyed first. */
	struct weston_surface *surface;
	struct wl_listener surface_destroy;
	struct text_input_state pending, current;
	uint32_t commits;
};

struct capture {
	struct test_input *ti;
	struct wl_resource *resource;
	struct wl_resource *buffer;
	struct wl_listener buffer_destroy;
	struct wl_list link;
};

static struct weston_output *first_output(struct test_input *ti)
{
	struct weston_output *output;
	wl_list_for_each(output, &ti->compositor->output_list, link)
		return output;
	return NULL;
}

static void to_timespec(uint32_t msec, struct timespec *ts)
{
	ts->tv_sec = msec / 1000;
	ts->tv_nsec = (long)(msec % 1000) * 1000000L;
}

/* --- touch id bookkeeping --------------------------------------------------------------- */

static int touch_slot(struct test_input *ti, int id)
{
	for (int i = 0; i < MAX_TOUCH_IDS; i++)
		if (ti->touch_ids[i] == id)
			return i;
	return -1;
}

static void release_all_touch_ids(struct test_input *ti)
{
	for (int i = 0; i < MAX_TOUCH_IDS; i++)
		ti->touch_ids[i] = -1;
}

/* --- requests ----------------------------------------------------------------------------- */

static void show_sprite(struct test_input *ti);

static void handle_destroy(struct wl_client *client, struct wl_resource *resource)
{
	wl_resource_destroy(resource);
}

static void handle_pointer_motion_absolute(struct wl_client *client, struct wl_resource *resource, uint32_t time,
					   wl_fixed_t x, wl_fixed_t y)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	struct timespec ts;
	to_timespec(time, &ts);
	notify_motion_absolute(&ti->seat, &ts, wl_fixed_to_double(x), wl_fixed_to_double(y));
	show_sprite(ti);
}

/* --- the pointer held off every surface ------------------------------------------------ */

/* pointer_hide clears the focus, and weston gives it back to the surface under the pointer at
 * its next repick (a surface committed, a view moved): over a window as large as the output, at
 * once. The window then had the pointer over it through a whole script, where offscreen it has
 * none (its scroll indicators stayed a second, not half of one). While hiding, a grab keeps the
 * focus cleared; the next pointer input ends it (weston re-picks the focus then, as the pointer
 * comes back) and goes on to the default grab. */

static void hidden_end(struct weston_pointer_grab *grab)
{
	struct test_input *ti = wl_container_of(grab, ti, hidden_grab);
	ti->hiding = false;
	weston_pointer_end_grab(grab->pointer);
}

static void hidden_focus(struct weston_pointer_grab *grab)
{
	/* Off every surface: a repick gives the focus to none. */
}

static void hidden_motion(struct weston_pointer_grab *grab, const struct timespec *time,
			  struct weston_pointer_motion_event *event)
{
	struct weston_pointer *pointer = grab->pointer;
	hidden_end(grab);
	pointer->grab->interface->motion(pointer->grab, time, event);
}

static void hidden_button(struct weston_pointer_grab *grab, const struct timespec *time, uint32_t button,
			  uint32_t state)
{
	struct weston_pointer *pointer = grab->pointer;
	hidden_end(grab);
	pointer->grab->interface->button(pointer->grab, time, button, state);
}

static void hidden_axis(struct weston_pointer_grab *grab, const struct timespec *time,
			struct weston_pointer_axis_event *event)
{
	struct weston_pointer *pointer = grab->pointer;
	hidden_end(grab);
	pointer->grab->interface->axis(pointer->grab, time, event);
}

static void hidden_axis_source(struct weston_pointer_grab *grab, uint32_t source)
{
	struct weston_pointer *pointer = grab->pointer;
	hidden_end(grab);
	pointer->grab->interface->axis_source(pointer->grab, source);
}

static void hidden_frame(struct weston_pointer_grab *grab)
{
	/* No surface has the focus: no frame to end. */
}

static void hidden_cancel(struct weston_pointer_grab *grab)
{
	/* Another grab took the pointer over. */
	struct test_input *ti = wl_container_of(grab, ti, hidden_grab);
	ti->hiding = false;
}

static const struct weston_pointer_grab_interface hidden_grab_interface = {
	hidden_focus, hidden_motion, hidden_button, hidden_axis, hidden_axis_source, hidden_frame, hidden_cancel,
};

static void handle_pointer_hide(struct wl_client *client, struct wl_resource *resource)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	struct weston_pointer *pointer = ti->seat.pointer_state;
	if (!pointer)
		return;
	weston_pointer_clear_focus(pointer);
	/* Held off until the next pointer input; not while a button is down (the release would go
	 * to the surface the grab's end re-picks, which never had the press) or another grab runs. */
	if (!ti->hiding && pointer->button_count == 0 && pointer->grab == &pointer->default_grab) {
		ti->hidden_grab.interface = &hidden_grab_interface;
		ti->hiding = true;
		weston_pointer_start_grab(pointer, &ti->hidden_grab);
	}
	/* Losing focus does not take the cursor sprite down; unmap its view. Not its surface:
	 * that makes weston re-pick the focus at once, and the client's next cursor commit would
	 * map it right back. The view returns on the next injected motion (show_sprite). */
	if (pointer->sprite && weston_view_is_mapped(pointer->sprite)) {
		weston_view_unmap(pointer->sprite);
		ti->hidden_sprite = pointer->sprite;
	}
}

/* Puts a sprite hidden by pointer_hide back in the cursor layer, if it is still the sprite. */
static void show_sprite(struct test_input *ti)
{
	struct weston_pointer *pointer = ti->seat.pointer_state;
	struct weston_view *sprite = ti->hidden_sprite;
	ti->hidden_sprite = NULL;
	if (!pointer || !sprite || pointer->sprite != sprite || weston_view_is_mapped(sprite))
		return;
	weston_layer_entry_insert(&ti->compositor->cursor_layer.view_list, &sprite->layer_link);
	/* Mapped again, as weston's own cursor commit marks it: otherwise the next pointer_hide
	 * would take it for unmapped and leave it on screen. */
	sprite->is_mapped = true;
	weston_view_geometry_dirty(sprite);
	weston_view_update_transform(sprite);
	weston_compositor_schedule_repaint(ti->compositor);
}

static void handle_pointer_button(struct wl_client *client, struct wl_resource *resource, uint32_t time,
				  uint32_t button, uint32_t state)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	struct timespec ts;
	if (state > 1) {
		wl_resource_post_error(resource, SCROLLWAY_TEST_INPUT_V1_ERROR_INVALID_ARGUMENT,
				       "button state %u is neither released (0) nor pressed (1)", state);
		return;
	}
	to_timespec(time, &ts);
	notify_button(&ti->seat, &ts, (int32_t)button,
		      state ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED);
}

static void handle_pointer_axis_source(struct wl_client *client, struct wl_resource *resource, uint32_t source)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	if (source > WL_POINTER_AXIS_SOURCE_WHEEL_TILT) {
		wl_resource_post_error(resource, SCROLLWAY_TEST_INPUT_V1_ERROR_INVALID_ARGUMENT,
				       "axis source %u is not a wl_pointer.axis_source", source);
		return;
	}
	notify_axis_source(&ti->seat, source);
}

static bool valid_axis(struct wl_resource *resource, uint32_t axis)
{
	if (axis <= WL_POINTER_AXIS_HORIZONTAL_SCROLL)
		return true;
	wl_resource_post_error(resource, SCROLLWAY_TEST_INPUT_V1_ERROR_INVALID_ARGUMENT,
			       "axis %u is neither vertical (0) nor horizontal (1)", axis);
	return false;
}

static void handle_pointer_axis(struct wl_client *client, struct wl_resource *resource, uint32_t time, uint32_t axis,
				wl_fixed_t value, int32_t discrete, int32_t value120)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	struct weston_pointer_axis_event event;
	struct timespec ts;
	(void)value120; /* weston 10 speaks wl_pointer v7: clients get axis_discrete */
	if (!valid_axis(resource, axis))
		return;
	to_timespec(time, &ts);
	memset(&event, 0, sizeof event);
	event.axis = axis;
	event.value = wl_fixed_to_double(value);
	event.has_discrete = discrete != 0;
	event.discrete = discrete;
	notify_axis(&ti->seat, &ts, &event);
}

static void handle_pointer_axis_stop(struct wl_client *client, struct wl_resource *resource, uint32_t time,
				     uint32_t axis)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	struct weston_pointer_axis_event event;
	struct timespec ts;
	if (!valid_axis(resource, axis))
		return;
	/* weston sends wl_pointer.axis_stop for an axis event with value 0 and no discrete. */
	to_timespec(time, &ts);
	memset(&event, 0, sizeof event);
	event.axis = axis;
	notify_axis(&ti->seat, &ts, &event);
}

static void handle_pointer_frame(struct wl_client *client, struct wl_resource *resource)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	notify_pointer_frame(&ti->seat);
}

static void handle_touch_down(struct wl_client *client, struct wl_resource *resource, uint32_t time, int32_t id,
			      wl_fixed_t x, wl_fixed_t y)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	struct timespec ts;
	int slot;
	if (touch_slot(ti, id) >= 0) {
		wl_resource_post_error(resource, SCROLLWAY_TEST_INPUT_V1_ERROR_INVALID_TOUCH_ID,
				       "touch_down for id %d, which is already down", id);
		return;
	}
	slot = touch_slot(ti, -1);
	if (slot < 0 || id < 0) {
		wl_resource_post_error(resource, SCROLLWAY_TEST_INPUT_V1_ERROR_INVALID_TOUCH_ID,
				       "touch_down for id %d: ids are 0 or more, at most %d down at once", id,
				       MAX_TOUCH_IDS);
		return;
	}
	ti->touch_ids[slot] = id;
	to_timespec(time, &ts);
	notify_touch_normalized(ti->touch_device, &ts, id, wl_fixed_to_double(x), wl_fixed_to_double(y), NULL,
				WL_TOUCH_DOWN);
}

static void handle_touch_motion(struct wl_client *client, struct wl_resource *resource, uint32_t time, int32_t id,
				wl_fixed_t x, wl_fixed_t y)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	struct timespec ts;
	if (touch_slot(ti, id) < 0) {
		wl_resource_post_error(resource, SCROLLWAY_TEST_INPUT_V1_ERROR_INVALID_TOUCH_ID,
				       "touch_motion for id %d, which is not down", id);
		return;
	}
	to_timespec(time, &ts);
	notify_touch_normalized(ti->touch_device, &ts, id, wl_fixed_to_double(x), wl_fixed_to_double(y), NULL,
				WL_TOUCH_MOTION);
}

static void handle_touch_up(struct wl_client *client, struct wl_resource *resource, uint32_t time, int32_t id)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	struct timespec ts;
	int slot = touch_slot(ti, id);
	if (slot < 0) {
		wl_resource_post_error(resource, SCROLLWAY_TEST_INPUT_V1_ERROR_INVALID_TOUCH_ID,
				       "touch_up for id %d, which is not down", id);
		return;
	}
	ti->touch_ids[slot] = -1;
	to_timespec(time, &ts);
	notify_touch_normalized(ti->touch_device, &ts, id, 0, 0, NULL, WL_TOUCH_UP);
}

static void handle_touch_frame(struct wl_client *client, struct wl_resource *resource)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	notify_touch_frame(ti->touch_device);
}

/*
 * weston 10 never sends wl_touch.cancel, and notify_touch_cancel only cancels an active grab
 * (the default grab's cancel does nothing). So: tell the focused client, cancel any grab, then
 * reset weston's touch state (focus and touch-point count) so the next down picks a view anew.
 */
static void handle_touch_cancel(struct wl_client *client, struct wl_resource *resource)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	struct weston_touch *touch = ti->seat.touch_state;
	struct wl_resource *r;
	if (!touch)
		return;
	wl_resource_for_each(r, &touch->focus_resource_list)
		wl_touch_send_cancel(r);
	notify_touch_cancel(ti->touch_device);
	weston_touch_set_focus(touch, NULL);
	/* Every touch down raised idle_inhibit; the ups that will never come would have lowered it. */
	if (ti->compositor->idle_inhibit >= touch->num_tp)
		ti->compositor->idle_inhibit -= touch->num_tp;
	touch->num_tp = 0;
	release_all_touch_ids(ti);
}

static struct weston_surface *keyboard_target(struct test_input *ti)
{
	struct weston_pointer *pointer = ti->seat.pointer_state;
	struct weston_touch *touch = ti->seat.touch_state;
	if (pointer && pointer->focus)
		return pointer->focus->surface;
	if (touch && touch->focus)
		return touch->focus->surface;
	return NULL;
}

static void handle_key(struct wl_client *client, struct wl_resource *resource, uint32_t time, uint32_t key,
		       uint32_t state)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	struct weston_keyboard *keyboard = ti->seat.keyboard_state;
	struct timespec ts;
	if (state > 1) {
		wl_resource_post_error(resource, SCROLLWAY_TEST_INPUT_V1_ERROR_INVALID_ARGUMENT,
				       "key state %u is neither released (0) nor pressed (1)", state);
		return;
	}
	if (keyboard && !keyboard->focus) {
		struct weston_surface *target = keyboard_target(ti);
		if (target) {
			weston_seat_set_keyboard_focus(&ti->seat, target);
			notify_keyboard_focus_in(&ti->seat, &keyboard->keys, STATE_UPDATE_AUTOMATIC);
		}
	}
	to_timespec(time, &ts);
	notify_key(&ti->seat, &ts, key, state ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED,
		   STATE_UPDATE_AUTOMATIC);
}

/* --- capture ------------------------------------------------------------------------------ */

static void capture_finish(struct capture *c, const char *failure)
{
	if (failure)
		scrollway_test_capture_v1_send_failed(c->resource, failure);
	else
		scrollway_test_capture_v1_send_done(c->resource);
	wl_list_remove(&c->link);
	wl_list_init(&c->link);
	if (c->buffer) {
		wl_list_remove(&c->buffer_destroy.link);
		c->buffer = NULL;
	}
}

/* Copies the output's freshly repainted pixels into the capture's shm buffer (ARGB8888). */
static const char *capture_read(struct test_input *ti, struct weston_output *output, struct capture *c)
{
	struct wl_shm_buffer *shm = wl_shm_buffer_get(c->buffer);
	struct weston_compositor *ec = ti->compositor;
	int32_t width = output->current_mode->width;
	int32_t height = output->current_mode->height;
	int32_t stride;
	uint8_t *data;
	pixman_format_code_t format = ec->read_format;
	bool yflip = (ec->capabilities & WESTON_CAP_CAPTURE_YFLIP) != 0;
	int ok;

	if (!shm || wl_shm_buffer_get_width(shm) != width || wl_shm_buffer_get_height(shm) != height)
		return "the buffer is not a wl_shm buffer of the output's size";
	stride = wl_shm_buffer_get_stride(shm);
	if (stride < width * 4)
		return "the buffer's stride is too small for 32-bit pixels";
	if (format != PIXMAN_a8r8g8b8 && format != PIXMAN_x8r8g8b8 && format != PIXMAN_a8b8g8r8)
		return "the renderer's read format is not a 32-bit RGB format";

	wl_shm_buffer_begin_access(shm);
	data = wl_shm_buffer_get_data(shm);
	if (stride == width * 4) {
		ok = ec->renderer->read_pixels(output, format, data, 0, 0, (uint32_t)width, (uint32_t)height) == 0;
	} else {
		uint8_t *tmp = malloc((size_t)width * 4 * (size_t)height);
		ok = tmp && ec->renderer->read_pixels(output, format, tmp, 0, 0, (uint32_t)width, (uint32_t)height) == 0;
		for (int32_t y = 0; ok && y < height; y++)
			memcpy(data + (size_t)y * (size_t)stride, tmp + (size_t)y * (size_t)width * 4, (size_t)width * 4);
		free(tmp);
	}
	if (ok) {
		for (int32_t y = 0; y < height; y++) {
			uint32_t *row = (uint32_t *)(data + (size_t)y * (size_t)stride);
			for (int32_t x = 0; x < width; x++) {
				uint32_t p = row[x];
				if (format == PIXMAN_a8b8g8r8) /* swap R and B into ARGB */
					p = (p & 0xff00ff00u) | ((p & 0xffu) << 16) | ((p >> 16) & 0xffu);
				if (format == PIXMAN_x8r8g8b8 || format == PIXMAN_a8b8g8r8)
					p |= 0xff000000u; /* outputs are opaque */
				row[x] = p;
			}
		}
		if (yflip) {
			uint8_t *line = malloc((size_t)stride);
			for (int32_t y = 0; line && y < height / 2; y++) {
				uint8_t *a = data + (size_t)y * (size_t)stride;
				uint8_t *b = data + (size_t)(height - 1 - y) * (size_t)stride;
				memcpy(line, a, (size_t)stride);
				memcpy(a, b, (size_t)stride);
				memcpy(b, line, (size_t)stride);
			}
			free(line);
		}
	}
	wl_shm_buffer_end_access(shm);
	return ok ? NULL : "the renderer could not read the output's pixels";
}

static void stop_frame_listening(struct test_input *ti)
{
	if (!ti->frame_listening)
		return;
	wl_list_remove(&ti->frame_listener.link);
	ti->frame_listening = false;
	ti->frame_output = NULL;
}

/* An output went away (remove_output): captures waiting for its repaint fail, never wait. */
static void output_destroyed(struct wl_listener *listener, void *data)
{
	struct test_input *ti = wl_container_of(listener, ti, output_destroyed_listener);
	struct capture *c, *next;
	if (!ti->frame_listening || ti->frame_output != data)
		return;
	stop_frame_listening(ti);
	wl_list_for_each_safe(c, next, &ti->captures, link)
		capture_finish(c, "the output went away");
}

/* The output repainted: serve every pending capture from this frame. */
static void output_frame(struct wl_listener *listener, void *data)
{
	struct test_input *ti = wl_container_of(listener, ti, frame_listener);
	struct weston_output *output = first_output(ti);
	struct capture *c, *next;
	stop_frame_listening(ti);
	wl_list_for_each_safe(c, next, &ti->captures, link) {
		const char *failure = output ? capture_read(ti, output, c) : "the output went away";
		capture_finish(c, failure);
	}
}

static void capture_buffer_destroyed(struct wl_listener *listener, void *data)
{
	struct capture *c = wl_container_of(listener, c, buffer_destroy);
	c->buffer = NULL;
	wl_list_init(&c->buffer_destroy.link);
	scrollway_test_capture_v1_send_failed(c->resource, "the buffer was destroyed before the capture");
	wl_list_remove(&c->link);
	wl_list_init(&c->link);
}

static void capture_resource_destroyed(struct wl_resource *resource)
{
	struct capture *c = wl_resource_get_user_data(resource);
	wl_list_remove(&c->link);
	if (c->buffer)
		wl_list_remove(&c->buffer_destroy.link);
	free(c);
}

static void capture_handle_destroy(struct wl_client *client, struct wl_resource *resource)
{
	wl_resource_destroy(resource);
}

static const struct scrollway_test_capture_v1_interface capture_implementation = {
	.destroy = capture_handle_destroy,
};

static void handle_capture(struct wl_client *client, struct wl_resource *resource, uint32_t id,
			   struct wl_resource *buffer)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	struct weston_output *output = first_output(ti);
	struct wl_shm_buffer *shm = wl_shm_buffer_get(buffer);
	struct capture *c = calloc(1, sizeof *c);
	if (!c) {
		wl_client_post_no_memory(client);
		return;
	}
	c->ti = ti;
	c->resource = wl_resource_create(client, &scrollway_test_capture_v1_interface, 1, id);
	if (!c->resource) {
		free(c);
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(c->resource, &capture_implementation, c, capture_resource_destroyed);
	wl_list_init(&c->link);
	if (!shm || !output || wl_shm_buffer_get_width(shm) != output->current_mode->width ||
	    wl_shm_buffer_get_height(shm) != output->current_mode->height) {
		wl_resource_post_error(resource, SCROLLWAY_TEST_INPUT_V1_ERROR_INVALID_BUFFER,
				       "capture needs a wl_shm buffer of the output's size (%dx%d)",
				       output ? output->current_mode->width : 0,
				       output ? output->current_mode->height : 0);
		return;
	}
	c->buffer = buffer;
	c->buffer_destroy.notify = capture_buffer_destroyed;
	wl_resource_add_destroy_listener(buffer, &c->buffer_destroy);
	wl_list_insert(ti->captures.prev, &c->link);
	if (!ti->frame_listening) {
		ti->frame_listener.notify = output_frame;
		wl_signal_add(&output->frame_signal, &ti->frame_listener);
		ti->frame_listening = true;
		ti->frame_output = output;
	}
	/* A capture waits for the next repaint; make sure there is one. */
	weston_output_damage(output);
	weston_output_schedule_repaint(output);
}

/* The input method's requests (text input section below). */
static void handle_text_input_preedit(struct wl_client *client, struct wl_resource *resource, const char *text,
				      int32_t cursor_begin, int32_t cursor_end);
static void handle_text_input_commit_string(struct wl_client *client, struct wl_resource *resource,
					    const char *text);
static void handle_text_input_delete_surrounding(struct wl_client *client, struct wl_resource *resource,
						 uint32_t before, uint32_t after);
static void handle_text_input_done(struct wl_client *client, struct wl_resource *resource);

/* Configures the toplevel with keyboard focus to width x height (a shell making room for a
 * system keyboard). */
static void handle_resize_focused(struct wl_client *client, struct wl_resource *resource, int32_t width,
				  int32_t height)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	struct weston_keyboard *keyboard = ti->seat.keyboard_state;
	struct weston_desktop_surface *desktop;
	if (width <= 0 || height <= 0) {
		wl_resource_post_error(resource, SCROLLWAY_TEST_INPUT_V1_ERROR_INVALID_ARGUMENT,
				       "resize_focused to %dx%d: both sides must be positive", width, height);
		return;
	}
	if (!keyboard || !keyboard->focus)
		return;
	desktop = weston_surface_get_desktop_surface(keyboard->focus);
	if (desktop)
		weston_desktop_surface_set_size(desktop, width, height);
}

/* --- outputs plugged in and unplugged ------------------------------------------------------ */

static struct weston_head *head_named(struct test_input *ti, const char *name)
{
	struct weston_head *head = NULL;
	while ((head = weston_compositor_iterate_heads(ti->compositor, head)))
		if (strcmp(weston_head_get_name(head), name) == 0)
			return head;
	return NULL;
}

/* Assigns every view to the outputs it overlaps now. weston 10 does so only for a view that
 * moves, or was on an output being removed, before the outputs left are moved into the gap:
 * a window kiosk-shell orphaned, or one an output plugged in over it overlaps, would stay on no
 * output or off the new one, where a compositor that re-places windows (sway moves a
 * workspace to an output left) puts it on one. Not done by add_output itself: weston sends
 * enter only to the wl_output objects bound by then, and the clients bind a new one later. */
static void reassign_views(struct test_input *ti)
{
	struct weston_view *view;
	/* Each view is taken off every output, then put back: weston's own repaints may already
	 * have put it on a new output before the clients bound it, and an unchanged mask sends no
	 * enter. */
	wl_list_for_each(view, &ti->compositor->view_list, link) {
		float x = view->geometry.x, y = view->geometry.y;
		weston_view_set_position(view, -1000000, -1000000);
		weston_view_update_transform(view);
		weston_view_set_position(view, x, y);
		weston_view_update_transform(view);
	}
	weston_compositor_schedule_repaint(ti->compositor);
}

/* A headless head and an output of our own on it, enabled here: weston's frontend configures
 * the outputs it enables itself from the command line's one size and scale, and finds this
 * head enabled when its heads-changed handler runs. */
static void handle_add_output(struct wl_client *client, struct wl_resource *resource, const char *name, int32_t x,
			      int32_t y, int32_t width, int32_t height, int32_t scale)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	const struct weston_windowed_output_api *api = weston_windowed_output_get_api(ti->compositor);
	struct weston_head *head;
	struct weston_output *output;
	if (width <= 0 || height <= 0 || scale < 1 || scale > 4 || head_named(ti, name) ||
	    weston_compositor_find_output_by_name(ti->compositor, name)) {
		wl_resource_post_error(resource, SCROLLWAY_TEST_INPUT_V1_ERROR_INVALID_OUTPUT,
				       "add_output %s %dx%d scale %d: name in use, or a bad size or scale", name, width,
				       height, scale);
		return;
	}
	if (!api || api->create_head(ti->compositor, name) < 0 || !(head = head_named(ti, name))) {
		wl_resource_post_error(resource, SCROLLWAY_TEST_INPUT_V1_ERROR_INVALID_OUTPUT,
				       "add_output %s: the backend made no head", name);
		return;
	}
	output = weston_compositor_create_output(ti->compositor, name);
	if (!output || weston_output_attach_head(output, head) < 0) {
		if (output)
			weston_output_destroy(output);
		weston_head_set_connection_status(head, false);
		wl_resource_post_error(resource, SCROLLWAY_TEST_INPUT_V1_ERROR_INVALID_OUTPUT,
				       "add_output %s: no output made", name);
		return;
	}
	weston_output_set_scale(output, scale);
	weston_output_set_transform(output, WL_OUTPUT_TRANSFORM_NORMAL);
	if (api->output_set_size(output, width, height) < 0 || weston_output_enable(output) < 0) {
		weston_output_destroy(output);
		weston_head_set_connection_status(head, false);
		wl_resource_post_error(resource, SCROLLWAY_TEST_INPUT_V1_ERROR_INVALID_OUTPUT,
				       "add_output %s: the output could not be enabled", name);
		return;
	}
	weston_output_move(output, x, y);
}

/* Unplugs an output as weston's frontend does when a head is disconnected: the output is
 * destroyed, and its heads, marked disconnected, are not enabled again by the frontend. */
static void handle_remove_output(struct wl_client *client, struct wl_resource *resource, const char *name,
				 uint32_t how)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	struct weston_output *output = weston_compositor_find_output_by_name(ti->compositor, name);
	struct weston_head *heads[8];
	struct weston_head *head = NULL;
	int n = 0;
	if (!output || how > SCROLLWAY_TEST_INPUT_V1_REMOVAL_HEADS_FIRST) {
		wl_resource_post_error(resource, SCROLLWAY_TEST_INPUT_V1_ERROR_INVALID_OUTPUT,
				       "remove_output %s (%u): no such output or way", name, how);
		return;
	}
	while (n < 8 && (head = weston_output_iterate_heads(output, head)))
		heads[n++] = head;
	/* The last head detached disables the output, with no head left to send leave for. */
	if (how == SCROLLWAY_TEST_INPUT_V1_REMOVAL_HEADS_FIRST)
		for (int i = 0; i < n; i++)
			weston_head_detach(heads[i]);
	weston_output_destroy(output);
	for (int i = 0; i < n; i++)
		weston_head_set_connection_status(heads[i], false);
}

static void handle_reassign_views(struct wl_client *client, struct wl_resource *resource)
{
	reassign_views(wl_resource_get_user_data(resource));
}

static const struct scrollway_test_input_v1_interface test_input_implementation = {
	.destroy = handle_destroy,
	.pointer_motion_absolute = handle_pointer_motion_absolute,
	.pointer_hide = handle_pointer_hide,
	.pointer_button = handle_pointer_button,
	.pointer_axis_source = handle_pointer_axis_source,
	.pointer_axis = handle_pointer_axis,
	.pointer_axis_stop = handle_pointer_axis_stop,
	.pointer_frame = handle_pointer_frame,
	.touch_down = handle_touch_down,
	.touch_motion = handle_touch_motion,
	.touch_up = handle_touch_up,
	.touch_frame = handle_touch_frame,
	.touch_cancel = handle_touch_cancel,
	.key = handle_key,
	.capture = handle_capture,
	.text_input_preedit = handle_text_input_preedit,
	.text_input_commit_string = handle_text_input_commit_string,
	.text_input_delete_surrounding = handle_text_input_delete_surrounding,
	.text_input_done = handle_text_input_done,
	.resize_focused = handle_resize_focused,
	.add_output = handle_add_output,
	.remove_output = handle_remove_output,
	.reassign_views = handle_reassign_views,
};

/* A driver that goes away lifts its fingers: leave weston's touch state consistent. */
static void test_input_resource_destroyed(struct wl_resource *resource)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	struct timespec ts;
	wl_list_remove(wl_resource_get_link(resource));
	if (!ti)
		return; /* the module is gone (compositor shutdown): nothing left to release */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	for (int i = 0; i < MAX_TOUCH_IDS; i++) {
		if (ti->touch_ids[i] < 0)
			continue;
		notify_touch_normalized(ti->touch_device, &ts, ti->touch_ids[i], 0, 0, NULL, WL_TOUCH_UP);
		ti->touch_ids[i] = -1;
	}
}

static void bind_test_input(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct test_input *ti = data;
	struct weston_output *output = first_output(ti);
	struct wl_resource *resource =
		wl_resource_create(client, &scrollway_test_input_v1_interface, version < 4 ? version : 4, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &test_input_implementation, ti, test_input_resource_destroyed);
	wl_list_insert(&ti->test_input_resources, wl_resource_get_link(resource));
	if (output)
		scrollway_test_input_v1_send_output_info(resource, output->current_mode->width,
							 output->current_mode->height, output->current_scale);
	if (wl_resource_get_version(resource) >= SCROLLWAY_TEST_INPUT_V1_IDLE_INHIBITORS_SINCE_VERSION)
		scrollway_test_input_v1_send_idle_inhibitors(resource, ti->idle_inhibitors);
}

/* --- idle inhibition (zwp_idle_inhibit_manager_v1) ----------------------------------------- */

/* Tells every test_input client how many inhibitors are alive. */
static void idle_inhibitors_changed(struct test_input *ti)
{
	struct wl_resource *r;
	wl_resource_for_each(r, &ti->test_input_resources) {
		if (wl_resource_get_version(r) >= SCROLLWAY_TEST_INPUT_V1_IDLE_INHIBITORS_SINCE_VERSION)
			scrollway_test_input_v1_send_idle_inhibitors(r, ti->idle_inhibitors);
	}
}

static void idle_inhibitor_destroyed(struct wl_resource *resource)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	wl_list_remove(wl_resource_get_link(resource));
	if (!ti)
		return;
	ti->idle_inhibitors--;
	idle_inhibitors_changed(ti);
}

static void idle_inhibitor_handle_destroy(struct wl_client *client, struct wl_resource *resource)
{
	wl_resource_destroy(resource);
}

static const struct zwp_idle_inhibitor_v1_interface idle_inhibitor_implementation = {
	.destroy = idle_inhibitor_handle_destroy,
};

static void idle_inhibit_manager_handle_destroy(struct wl_client *client, struct wl_resource *resource)
{
	wl_resource_destroy(resource);
}

/* Headless weston never blanks, so the inhibitor only needs to exist and be counted. */
static void idle_inhibit_manager_create_inhibitor(struct wl_client *client, struct wl_resource *resource,
						  uint32_t id, struct wl_resource *surface)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	struct wl_resource *inhibitor =
		wl_resource_create(client, &zwp_idle_inhibitor_v1_interface, wl_resource_get_version(resource), id);
	if (!inhibitor) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(inhibitor, &idle_inhibitor_implementation, ti, idle_inhibitor_destroyed);
	wl_list_insert(&ti->idle_inhibitor_resources, wl_resource_get_link(inhibitor));
	ti->idle_inhibitors++;
	idle_inhibitors_changed(ti);
}

static const struct zwp_idle_inhibit_manager_v1_interface idle_inhibit_manager_implementation = {
	.destroy = idle_inhibit_manager_handle_destroy,
	.create_inhibitor = idle_inhibit_manager_create_inhibitor,
};

static void bind_idle_inhibit_manager(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &zwp_idle_inhibit_manager_v1_interface, version < 1 ? version : 1, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &idle_inhibit_manager_implementation, data, NULL);
}

/* --- text input (zwp_text_input_manager_v3): the module as the input method --------------- */

static void text_input_state_clear(struct text_input_state *s)
{
	free(s->surrounding);
	memset(s, 0, sizeof *s);
}

/* Tells every test_input driver what a text input's commit made current. */
static void report_text_input_state(struct test_input *ti, struct text_input *t)
{
	struct wl_resource *r;
	const struct text_input_state *s = &t->current;
	wl_resource_for_each(r, &ti->test_input_resources) {
		if (wl_resource_get_version(r) < SCROLLWAY_TEST_INPUT_V1_TEXT_INPUT_STATE_SINCE_VERSION)
			continue;
		scrollway_test_input_v1_send_text_input_state(
			r, s->enabled, s->has_surrounding, s->surrounding ? s->surrounding : "", s->cursor,
			s->anchor, s->hint, s->purpose, s->has_rectangle, s->x, s->y, s->width, s->height,
			t->commits);
	}
}

static void report_text_input_focus(struct test_input *ti, bool entered)
{
	struct wl_resource *r;
	wl_resource_for_each(r, &ti->test_input_resources) {
		if (wl_resource_get_version(r) >= SCROLLWAY_TEST_INPUT_V1_TEXT_INPUT_FOCUS_SINCE_VERSION)
			scrollway_test_input_v1_send_text_input_focus(r, entered);
	}
}

static void text_input_surface_destroyed(struct wl_listener *listener, void *data)
{
	struct text_input *t = wl_container_of(listener, t, surface_destroy);
	wl_list_remove(&t->surface_destroy.link);
	wl_list_init(&t->surface_destroy.link);
	t->surface = NULL;
	text_input_state_clear(&t->current);
}

/* Follows keyboard focus, as the protocol says text-input focus does on a seat with a keyboard:
 * leave to the text input on the old surface, enter to those of the new surface's client. */
static void text_input_follow_focus(struct text_input *t, struct weston_surface *focus)
{
	struct test_input *ti = t->ti;
	struct wl_client *client = wl_resource_get_client(t->resource);
	if (t->surface == focus)
		return;
	if (t->surface) {
		zwp_text_input_v3_send_leave(t->resource, t->surface->resource);
		wl_list_remove(&t->surface_destroy.link);
		wl_list_init(&t->surface_destroy.link);
		t->surface = NULL;
		/* After leave the state is gone: the client resends it after the next enter. */
		text_input_state_clear(&t->current);
		report_text_input_focus(ti, false);
	}
	if (focus && focus->resource && wl_resource_get_client(focus->resource) == client) {
		t->surface = focus;
		t->surface_destroy.notify = text_input_surface_destroyed;
		wl_signal_add(&focus->destroy_signal, &t->surface_destroy);
		zwp_text_input_v3_send_enter(t->resource, focus->resource);
		report_text_input_focus(ti, true);
	}
}

static void keyboard_focus_changed(struct wl_listener *listener, void *data)
{
	struct test_input *ti = wl_container_of(listener, ti, keyboard_focus_listener);
	struct weston_keyboard *keyboard = data;
	struct text_input *t;
	wl_list_for_each(t, &ti->text_inputs, link)
		text_input_follow_focus(t, keyboard->focus);
}

static void text_input_destroyed(struct wl_resource *resource)
{
	struct text_input *t = wl_resource_get_user_data(resource);
	wl_list_remove(&t->link);
	wl_list_remove(&t->surface_destroy.link);
	text_input_state_clear(&t->pending);
	text_input_state_clear(&t->current);
	free(t);
}

static void text_input_handle_destroy(struct wl_client *client, struct wl_resource *resource)
{
	wl_resource_destroy(resource);
}

/* enable resets the state of the previous enable (the protocol's words); disable only marks it. */
static void text_input_enable(struct wl_client *client, struct wl_resource *resource)
{
	struct text_input *t = wl_resource_get_user_data(resource);
	text_input_state_clear(&t->pending);
	t->pending.enabled = true;
}

static void text_input_disable(struct wl_client *client, struct wl_resource *resource)
{
	struct text_input *t = wl_resource_get_user_data(resource);
	text_input_state_clear(&t->pending);
}

static void text_input_set_surrounding_text(struct wl_client *client, struct wl_resource *resource,
					    const char *text, int32_t cursor, int32_t anchor)
{
	struct text_input *t = wl_resource_get_user_data(resource);
	free(t->pending.surrounding);
	t->pending.surrounding = strdup(text);
	t->pending.has_surrounding = true;
	t->pending.cursor = cursor;
	t->pending.anchor = anchor;
}

static void text_input_set_text_change_cause(struct wl_client *client, struct wl_resource *resource,
					     uint32_t cause)
{
}

static void text_input_set_content_type(struct wl_client *client, struct wl_resource *resource, uint32_t hint,
					uint32_t purpose)
{
	struct text_input *t = wl_resource_get_user_data(resource);
	t->pending.hint = hint;
	t->pending.purpose = purpose;
}

static void text_input_set_cursor_rectangle(struct wl_client *client, struct wl_resource *resource, int32_t x,
					    int32_t y, int32_t width, int32_t height)
{
	struct text_input *t = wl_resource_get_user_data(resource);
	t->pending.has_rectangle = true;
	t->pending.x = x;
	t->pending.y = y;
	t->pending.width = width;
	t->pending.height = height;
}

/* The pending state becomes current (the pending state stays as it is: the protocol keeps
 * values until the next enable or disable), and the drivers hear of it. Requests from a text
 * input with no focus are ignored, as after a leave. */
static void text_input_commit(struct wl_client *client, struct wl_resource *resource)
{
	struct text_input *t = wl_resource_get_user_data(resource);
	t->commits++;
	if (!t->surface)
		return;
	text_input_state_clear(&t->current);
	t->current = t->pending;
	t->current.surrounding = t->pending.surrounding ? strdup(t->pending.surrounding) : NULL;
	report_text_input_state(t->ti, t);
}

static const struct zwp_text_input_v3_interface text_input_implementation = {
	.destroy = text_input_handle_destroy,
	.enable = text_input_enable,
	.disable = text_input_disable,
	.set_surrounding_text = text_input_set_surrounding_text,
	.set_text_change_cause = text_input_set_text_change_cause,
	.set_content_type = text_input_set_content_type,
	.set_cursor_rectangle = text_input_set_cursor_rectangle,
	.commit = text_input_commit,
};

static void text_input_manager_handle_destroy(struct wl_client *client, struct wl_resource *resource)
{
	wl_resource_destroy(resource);
}

static void text_input_manager_get_text_input(struct wl_client *client, struct wl_resource *resource, uint32_t id,
					      struct wl_resource *seat)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	struct weston_keyboard *keyboard = ti->seat.keyboard_state;
	struct text_input *t = calloc(1, sizeof *t);
	if (!t) {
		wl_client_post_no_memory(client);
		return;
	}
	t->resource = wl_resource_create(client, &zwp_text_input_v3_interface, wl_resource_get_version(resource), id);
	if (!t->resource) {
		free(t);
		wl_client_post_no_memory(client);
		return;
	}
	t->ti = ti;
	wl_list_init(&t->surface_destroy.link);
	wl_resource_set_implementation(t->resource, &text_input_implementation, t, text_input_destroyed);
	wl_list_insert(&ti->text_inputs, &t->link);
	/* The keyboard may already be on one of the client's surfaces. */
	if (keyboard)
		text_input_follow_focus(t, keyboard->focus);
}

static const struct zwp_text_input_manager_v3_interface text_input_manager_implementation = {
	.destroy = text_input_manager_handle_destroy,
	.get_text_input = text_input_manager_get_text_input,
};

static void bind_text_input_manager(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &zwp_text_input_manager_v3_interface, version < 1 ? version : 1, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &text_input_manager_implementation, data, NULL);
}

static void im_reset(struct test_input *ti)
{
	free(ti->im_preedit);
	free(ti->im_commit);
	ti->im_preedit = NULL;
	ti->im_commit = NULL;
	ti->im_has_preedit = false;
	ti->im_has_delete = false;
	ti->im_cursor_begin = ti->im_cursor_end = 0;
	ti->im_delete_before = ti->im_delete_after = 0;
}

static void handle_text_input_preedit(struct wl_client *client, struct wl_resource *resource, const char *text,
				      int32_t cursor_begin, int32_t cursor_end)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	free(ti->im_preedit);
	ti->im_preedit = strdup(text);
	ti->im_has_preedit = true;
	ti->im_cursor_begin = cursor_begin;
	ti->im_cursor_end = cursor_end;
}

static void handle_text_input_commit_string(struct wl_client *client, struct wl_resource *resource,
					    const char *text)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	free(ti->im_commit);
	ti->im_commit = strdup(text);
}

static void handle_text_input_delete_surrounding(struct wl_client *client, struct wl_resource *resource,
						 uint32_t before, uint32_t after)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	ti->im_has_delete = true;
	ti->im_delete_before = before;
	ti->im_delete_after = after;
}

/* The enabled text input on the surface with keyboard focus gets what was set, then done. */
static void handle_text_input_done(struct wl_client *client, struct wl_resource *resource)
{
	struct test_input *ti = wl_resource_get_user_data(resource);
	struct weston_keyboard *keyboard = ti->seat.keyboard_state;
	struct text_input *t;
	wl_list_for_each(t, &ti->text_inputs, link) {
		if (!keyboard || !t->surface || t->surface != keyboard->focus || !t->current.enabled)
			continue;
		if (ti->im_has_preedit)
			zwp_text_input_v3_send_preedit_string(t->resource, ti->im_preedit, ti->im_cursor_begin,
							      ti->im_cursor_end);
		if (ti->im_commit)
			zwp_text_input_v3_send_commit_string(t->resource, ti->im_commit);
		if (ti->im_has_delete)
			zwp_text_input_v3_send_delete_surrounding_text(t->resource, ti->im_delete_before,
									ti->im_delete_after);
		zwp_text_input_v3_send_done(t->resource, t->commits);
	}
	im_reset(ti);
}

/* --- lifetime ----------------------------------------------------------------------------- */

/* Exits the compositor once the process that started the rig is gone. A process that has
 * exited but is not yet reaped (a zombie) still answers kill(pid, 0), so the watch is a pidfd,
 * which becomes readable the moment the process exits; kernels without pidfd_open get a timer
 * that reads the process state from /proc and counts a zombie as gone. */
static bool parent_is_gone(pid_t pid)
{
	char path[64], line[512];
	FILE *f;
	char *close_paren;
	bool gone = false;
	if (kill(pid, 0) != 0 && errno == ESRCH)
		return true;
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return true;
	/* "pid (comm) S ...": the state follows the last ')' (comm may contain one). */
	if (fgets(line, sizeof line, f) && (close_paren = strrchr(line, ')')) && close_paren[1] == ' ')
		gone = close_paren[2] == 'Z' || close_paren[2] == 'X';
	fclose(f);
	return gone;
}

static void parent_gone(struct test_input *ti)
{
	weston_log("scrollway-test-input: rig parent %d is gone; exiting\n", (int)ti->parent);
	weston_compositor_exit(ti->compositor);
}

static int watch_parent_fd(int fd, uint32_t mask, void *data)
{
	struct test_input *ti = data;
	(void)fd;
	(void)mask;
	/* Readable once the process exits; remove the source so it does not fire again. */
	wl_event_source_remove(ti->parent_watch);
	ti->parent_watch = NULL;
	parent_gone(ti);
	return 0;
}

static int watch_parent_timer(void *data)
{
	struct test_input *ti = data;
	if (parent_is_gone(ti->parent)) {
		parent_gone(ti);
		return 0;
	}
	wl_event_source_timer_update(ti->parent_watch, 250);
	return 0;
}

static void start_parent_watch(struct test_input *ti, pid_t parent)
{
	struct wl_event_loop *loop = wl_display_get_event_loop(ti->compositor->wl_display);
#ifdef SYS_pidfd_open
	int fd = (int)syscall(SYS_pidfd_open, parent, 0);
	ti->parent = parent;
	if (fd >= 0) {
		/* The loop keeps its own duplicate of the descriptor. */
		ti->parent_watch = wl_event_loop_add_fd(loop, fd, WL_EVENT_READABLE, watch_parent_fd, ti);
		close(fd);
		if (ti->parent_watch)
			return;
	}
#endif
	ti->parent = parent;
	ti->parent_watch = wl_event_loop_add_timer(loop, watch_parent_timer, ti);
	if (ti->parent_watch)
		wl_event_source_timer_update(ti->parent_watch, 250);
}

/* Releases everything the module created; the one teardown for both failure and shutdown. */
static void test_input_free(struct test_input *ti)
{
	struct capture *c, *next;
	struct wl_resource *r;
	/* Resources outlive the module at shutdown (clients are destroyed after the compositor's
	 * destroy listeners run): their destructors must find no module to update. */
	wl_resource_for_each(r, &ti->test_input_resources)
		wl_resource_set_user_data(r, NULL);
	wl_resource_for_each(r, &ti->idle_inhibitor_resources)
		wl_resource_set_user_data(r, NULL);
	/* Text inputs outlive the module too: they forget it and the surface they were on. */
	{
		struct text_input *t, *tnext;
		wl_list_for_each_safe(t, tnext, &ti->text_inputs, link) {
			wl_list_remove(&t->surface_destroy.link);
			wl_list_init(&t->surface_destroy.link);
			t->surface = NULL;
			wl_list_remove(&t->link);
			wl_list_init(&t->link);
		}
	}
	if (ti->keyboard_focus_listener.notify)
		wl_list_remove(&ti->keyboard_focus_listener.link);
	im_reset(ti);
	stop_frame_listening(ti);
	if (ti->output_destroyed_listener.notify)
		wl_list_remove(&ti->output_destroyed_listener.link);
	wl_list_for_each_safe(c, next, &ti->captures, link)
		capture_finish(c, "the compositor is shutting down");
	if (ti->parent_watch)
		wl_event_source_remove(ti->parent_watch);
	if (ti->global)
		wl_global_destroy(ti->global);
	if (ti->idle_inhibit_global)
		wl_global_destroy(ti->idle_inhibit_global);
	if (ti->text_input_global)
		wl_global_destroy(ti->text_input_global);
	if (ti->touch_device)
		weston_touch_device_destroy(ti->touch_device);
	weston_seat_release(&ti->seat);
	free(ti);
}

static void compositor_destroyed(struct wl_listener *listener, void *data)
{
	struct test_input *ti = wl_container_of(listener, ti, destroy_listener);
	test_input_free(ti);
}

WL_EXPORT int wet_module_init(struct weston_compositor *compositor, int *argc, char *argv[])
{
	struct test_input *ti = calloc(1, sizeof *ti);
	const char *parent;
	if (!ti)
		return -1;
	ti->compositor = compositor;
	wl_list_init(&ti->captures);
	wl_list_init(&ti->test_input_resources);
	wl_list_init(&ti->idle_inhibitor_resources);
	wl_list_init(&ti->text_inputs);
	release_all_touch_ids(ti);

	weston_seat_init(&ti->seat, compositor, "default");
	if (weston_seat_init_pointer(&ti->seat) < 0 || weston_seat_init_keyboard(&ti->seat, NULL) < 0 ||
	    weston_seat_init_touch(&ti->seat) < 0) {
		weston_log("scrollway-test-input: cannot give the seat a pointer, keyboard and touch\n");
		test_input_free(ti);
		return -1;
	}
	/* No ops: the device cannot be calibrated, so touches pass norm = NULL. */
	ti->touch_device = weston_touch_create_touch_device(ti->seat.touch_state, "scrollway-test-touch", NULL, NULL);
	ti->global = wl_global_create(compositor->wl_display, &scrollway_test_input_v1_interface, 4, ti,
				      bind_test_input);
	ti->idle_inhibit_global = wl_global_create(compositor->wl_display, &zwp_idle_inhibit_manager_v1_interface, 1,
						   ti, bind_idle_inhibit_manager);
	ti->text_input_global = wl_global_create(compositor->wl_display, &zwp_text_input_manager_v3_interface, 1, ti,
						 bind_text_input_manager);
	ti->output_destroyed_listener.notify = output_destroyed;
	wl_signal_add(&compositor->output_destroyed_signal, &ti->output_destroyed_listener);
	ti->keyboard_focus_listener.notify = keyboard_focus_changed;
	wl_signal_add(&ti->seat.keyboard_state->focus_signal, &ti->keyboard_focus_listener);
	if (!ti->touch_device || !ti->global || !ti->idle_inhibit_global || !ti->text_input_global) {
		weston_log("scrollway-test-input: cannot create the touch device or the global\n");
		test_input_free(ti);
		return -1;
	}

	parent = getenv("SCROLLWAY_RIG_PARENT_PID");
	if (parent && atoi(parent) > 0) {
		start_parent_watch(ti, (pid_t)atoi(parent));
	}

	ti->destroy_listener.notify = compositor_destroyed;
	if (!weston_compositor_add_destroy_listener_once(compositor, &ti->destroy_listener, compositor_destroyed)) {
		test_input_free(ti);
		return -1;
	}
	weston_log("scrollway-test-input: seat \"default\" with pointer, keyboard and touch; "
		   "scrollway_test_input_v1 ready\n");
	return 0;
}
