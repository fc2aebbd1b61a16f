#!/usr/bin/python3
"""A small GTK 3 window for the Orca end-to-end test: two buttons, an entry and a
multi-sentence text view. Prints `ready` once shown. Runs until killed."""
import sys
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk, GLib

SENTENCES = sys.argv[1:]

win = Gtk.Window(title="Utter test window")
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
win.add(box)
first = Gtk.Button(label="Marigold button")
second = Gtk.Button(label="Tangerine button")
entry = Gtk.Entry()
entry.get_accessible().set_name("Typing field")
view = Gtk.TextView()
view.get_buffer().set_text(" ".join(SENTENCES))
view.set_wrap_mode(Gtk.WrapMode.WORD)
view.get_accessible().set_name("Story text")
for widget in (first, second, entry, view):
    box.pack_start(widget, False, False, 0)
win.set_default_size(600, 400)
win.connect("destroy", Gtk.main_quit)
win.show_all()
first.grab_focus()
GLib.idle_add(lambda: print("ready", flush=True) and False)
Gtk.main()
