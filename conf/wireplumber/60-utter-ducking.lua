-- Utter: music and video lowered while the screen reader speaks, on WirePlumber 0.4 (Debian 12).
-- EXPERIMENTAL, not installed by the package: in hand-run trials with sd_utter on a private
-- PipeWire it ducked (Multimedia endpoint at 0.3 while Utter's stream was linked, back to 1.0
-- when the stream closed), but the automated test of the same sequence saw WirePlumber call its
-- duck and the volume stay at 1.0, cause not found.
--
-- WirePlumber reads its own folders only; to try it, for one user:
--   mkdir -p ~/.config/wireplumber/policy.lua.d
--   cp 60-utter-ducking.lua ~/.config/wireplumber/policy.lua.d/
--   systemctl --user restart wireplumber
-- and remove the file to go back to WirePlumber's default policy.
--
-- Debian 12's WirePlumber acts on media.role only through its role endpoints, off by default
-- (its 50-endpoints-config.lua: "not yet ready for desktop use"). This turns them on with three
-- roles: every playback stream goes through a "Multimedia" or an "Accessibility" endpoint on its
-- way to the sound card, every recording stream through "Capture" (without a role for recording
-- streams WirePlumber's script fails on the first one, and then links no stream at all). While
-- an Accessibility stream is linked, the Multimedia endpoint plays at duck.level (0.3).
-- Side effects: streams of every other role (Communication, Notification...) count as
-- Multimedia and duck too; Utter's stream ducks while it is open, silent or not (seen: from
-- the module's start-up, and until AudioIdleSeconds, utter.conf, 5 s, after the last speech).

default_policy.policy.roles = {
  ["Capture"] = {
    ["alias"] = { "Multimedia", "Music", "Voice", "Capture" },
    ["priority"] = 25,
    ["action.default"] = "mix",
    ["media.class"] = "Audio/Source",
  },
  ["Multimedia"] = {
    ["alias"] = { "Movie", "Music", "Game" },
    ["priority"] = 25,
    ["action.default"] = "mix",
  },
  ["Accessibility"] = {
    ["priority"] = 90,
    ["action.default"] = "duck",
    ["action.Accessibility"] = "mix",
  },
}

default_policy.endpoints = {
  ["endpoint.capture"] = { ["media.class"] = "Audio/Source", ["role"] = "Capture" },
  ["endpoint.multimedia"] = { ["media.class"] = "Audio/Sink", ["role"] = "Multimedia" },
  ["endpoint.accessibility"] = { ["media.class"] = "Audio/Sink", ["role"] = "Accessibility" },
}
