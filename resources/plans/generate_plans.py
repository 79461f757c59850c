#!/usr/bin/env python3
"""Generate the RechargeDesk prepaid plan catalogue: resources/plans/plans.json.

Standard library only.  The output is deterministic: the only "variation" between circles
comes from explicit circle lists in the templates below and from a hash (SHA-256) of
stable strings (operator code + circle code + template number), never from random().

Usage:
    python3 resources/plans/generate_plans.py            # write plans.json (+ missing logos)
    python3 resources/plans/generate_plans.py --check    # only validate the existing plans.json
    python3 resources/plans/generate_plans.py --rewrite-logos   # also overwrite logos/*.svg

The self-check at the end exits non-zero on any violation.  See SOURCES.md for the
facts the templates are based on, the plan_id rule and the file format.
"""

import hashlib
import json
import os
import sys
from xml.sax.saxutils import escape

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_PATH = os.path.join(HERE, "plans.json")
LOGO_DIR = os.path.join(HERE, "logos")
OPERATORS_JSON = os.path.join(HERE, "..", "data", "operators.json")

CATALOGUE_VERSION = "2025.1"
GENERATED_BY = "resources/plans/generate_plans.py"

# --------------------------------------------------------------------------------------
# Fixed tables.  The INDEX numbers are part of plan_id: never renumber, only append.
# --------------------------------------------------------------------------------------

# operator code -> (plan_id operator index, min amount, max amount)  (spec "Limits")
OPERATORS = {
    "AT": (1, 10, 2500),
    "VI": (2, 10, 5000),
    "BS": (3, 10, 2000),
    "RJ": (4, 10, 4999),
}

# circle code -> plan_id circle index (the spec's circle table order, 1-based)
CIRCLES = ["AP", "AS", "BR", "CH", "DL", "GJ", "HR", "HP", "JK", "KA", "KL", "KO",
           "MP", "MH", "MU", "NE", "OR", "PB", "RJ", "TN", "UE", "UW", "WB"]
CIRCLE_INDEX = {c: i + 1 for i, c in enumerate(CIRCLES)}

# Category names and their order in the output.
UNL, DATA, TOPUP, ANNUAL, OTT, IR = ("Unlimited", "Data", "Talktime/Top-up", "Annual",
                                    "Entertainment/OTT", "International Roaming")
CATEGORY_ORDER = [UNL, DATA, TOPUP, ANNUAL, OTT, IR]

# Circle groups used by circle-specific templates.
SOUTH = {"AP", "CH", "KA", "KL", "TN"}
EAST = {"AS", "BR", "KO", "NE", "OR", "WB"}
NORTH = {"DL", "HR", "HP", "JK", "PB", "RJ", "UE", "UW"}
WEST = {"GJ", "MP", "MH", "MU"}
METRO = {"DL", "MU", "KO", "CH"}
assert SOUTH | EAST | NORTH | WEST == set(CIRCLES)

# --------------------------------------------------------------------------------------
# OTT / bundled subscriptions: key -> (name, description, logo file, badge text, colour)
# Logos are original badges (rounded square + initials), not trademark artwork.
# --------------------------------------------------------------------------------------
SUBS = {
    "hotstar3m": ("Disney+ Hotstar Mobile", "3 months Disney+ Hotstar Mobile subscription", "disney-hotstar.svg"),
    "hotstar28": ("Disney+ Hotstar Mobile", "Disney+ Hotstar Mobile for the plan validity", "disney-hotstar.svg"),
    "hotstar1y": ("Disney+ Hotstar Mobile", "1 year Disney+ Hotstar Mobile subscription", "disney-hotstar.svg"),
    "primelite": ("Amazon Prime Lite", "Amazon Prime Lite membership for the plan validity", "amazon-prime.svg"),
    "primelite1y": ("Amazon Prime Lite", "1 year Amazon Prime Lite membership", "amazon-prime.svg"),
    "primemobile": ("Amazon Prime Video Mobile Edition", "Prime Video Mobile Edition for the plan validity", "amazon-prime.svg"),
    "sonyliv": ("SonyLIV", "SonyLIV Premium (mobile) for the plan validity", "sonyliv.svg"),
    "zee5": ("ZEE5", "ZEE5 Premium for the plan validity", "zee5.svg"),
    "jiocinema": ("JioCinema", "JioCinema access for the plan validity", "jiocinema.svg"),
    "jiocinemaprem": ("JioCinema Premium", "JioCinema Premium for the plan validity", "jiocinema.svg"),
    "jiotv": ("JioTV", "JioTV live channels for the plan validity", "jiotv.svg"),
    "jiotvprem": ("JioTV Premium", "JioTV Premium: 10+ OTT apps on one login for the plan validity", "jiotv.svg"),
    "jiocloud": ("JioCloud", "50 GB JioCloud storage", "jiocloud.svg"),
    "jiosaavn": ("JioSaavn Pro", "Ad-free music and downloads for the plan validity", "jiosaavn.svg"),
    "fancode": ("FanCode", "FanCode subscription for 1 year", "fancode.svg"),
    "xstream": ("Airtel Xstream Play", "Xstream Play: 20+ OTT apps for the plan validity", "xstream-play.svg"),
    "apollo": ("Apollo 24|7 Circle", "Apollo 24|7 Circle membership for 3 months", "apollo-circle.svg"),
    "hellotunes": ("Free Hellotunes", "Set free Hellotunes for the plan validity", "hellotunes.svg"),
    "applemusic6m": ("Apple Music", "6 months Apple Music for new subscribers", "apple-music.svg"),
    "netflixbasic": ("Netflix Basic", "Netflix Basic plan for the plan validity", "netflix.svg"),
    "netflixmobile": ("Netflix Mobile", "Netflix Mobile plan for the plan validity", "netflix.svg"),
    "vimtv": ("Vi Movies & TV", "Vi Movies & TV: 16+ OTT apps for the plan validity", "vi-movies-tv.svg"),
    "vimtvlite": ("Vi Movies & TV Lite", "Vi Movies & TV Lite for the plan validity", "vi-movies-tv.svg"),
    "sunnxt": ("Sun NXT", "Sun NXT mobile subscription for the plan validity", "sunnxt.svg"),
    "bitv": ("BSNL BiTV", "Live TV channels on mobile for the plan validity", "bsnl-bitv.svg"),
    "zing": ("Zing Music", "Zing music and video streaming for the plan validity", "zing.svg"),
    "hardy": ("Hardy Mobile Games", "Hardy Games access for the plan validity", "hardy-games.svg"),
    "lokdhun": ("Lokdhun", "Rajasthani music and video for the plan validity", "lokdhun.svg"),
}

# logo file -> (badge text, background colour).  Colours are plain, arbitrary choices.
LOGOS = {
    "disney-hotstar.svg": ("D+H", "#1f3c88"),
    "amazon-prime.svg": ("PR", "#1a98c9"),
    "sonyliv.svg": ("SL", "#3b3b3b"),
    "zee5.svg": ("Z5", "#7a2bc4"),
    "jiocinema.svg": ("JC", "#c2185b"),
    "jiotv.svg": ("JTV", "#2e5bba"),
    "jiocloud.svg": ("JCl", "#3a7bd5"),
    "jiosaavn.svg": ("JS", "#1e9e86"),
    "fancode.svg": ("FC", "#e4572e"),
    "xstream-play.svg": ("XP", "#d32f2f"),
    "apollo-circle.svg": ("A247", "#00796b"),
    "hellotunes.svg": ("HT", "#ad1457"),
    "apple-music.svg": ("AM", "#e53950"),
    "netflix.svg": ("NF", "#8b0000"),
    "vi-movies-tv.svg": ("VMT", "#f0b400"),
    "sunnxt.svg": ("SN", "#f57c00"),
    "bsnl-bitv.svg": ("BiTV", "#0d47a1"),
    "zing.svg": ("ZG", "#6a1b9a"),
    "hardy-games.svg": ("HG", "#2e7d32"),
    "lokdhun.svg": ("LD", "#bf360c"),
}


# --------------------------------------------------------------------------------------
# Templates
# --------------------------------------------------------------------------------------

class T:
    """One plan template.  `no` is the template number (part of plan_id, never reused)."""

    def __init__(self, no, cat, amount, validity, *, calls="NA", sms="NA", data="NA",
                 talktime=None, benefit=None, remark="", subs=(), only=None, exclude=(),
                 price=None, validity_in=None, subs_in=None, droppable=False):
        self.no = no
        self.cat = cat
        self.amount = amount
        self.validity = validity
        self.calls = calls
        self.sms = sms
        self.data = data
        self.talktime = talktime if talktime is not None else ("Unlimited" if calls == "Unlimited" else "NA")
        self.benefit = benefit
        self.remark = remark
        self.subs = tuple(subs)
        self.only = set(only) if only is not None else None   # circles where offered (None = all)
        self.exclude = set(exclude)                          # circles where not offered
        self.price = price or {}                             # circle -> amount override
        self.validity_in = validity_in or {}                 # circle -> validity override
        self.subs_in = subs_in or {}                         # circle -> extra subscription keys
        self.droppable = droppable                           # may be hash-dropped in a circle

    def offered_in(self, circle):
        if self.only is not None and circle not in self.only:
            return False
        return circle not in self.exclude


def voice_data_benefit(calls, data, sms, extra=""):
    parts = []
    if calls == "Unlimited":
        parts.append("Unlimited calls")
    elif calls not in ("NA", ""):
        parts.append(calls + " calls")
    if data not in ("NA", ""):
        parts.append(data + " data" if "/" not in data else data)
    if sms not in ("NA", ""):
        parts.append(sms.replace("/day", " SMS/day").replace(" total", " SMS").replace("/month", " SMS/month")
                     if not sms.endswith("SMS") else sms)
    text = ", ".join(parts)
    if extra:
        text = (text + ", " + extra) if text else extra
    return text


def topup(no, amount, talktime, **kw):
    kw.setdefault("remark", "Talktime after applicable taxes; no service validity")
    return T(no, TOPUP, amount, "NA", calls="As per base tariff", sms="NA", data="NA",
             talktime=talktime, benefit="Talktime %s" % talktime, **kw)


# Short-hands for common allowances.
U = "Unlimited"
FIVE_G = "Unlimited 5G data in 5G areas"

AIRTEL = [
    # ---- Unlimited (post 3 July 2024 tariff)
    T(1, UNL, 199, "28 days", calls=U, data="2 GB", sms="300 total", subs=("hellotunes",)),
    T(2, UNL, 299, "28 days", calls=U, data="1 GB/day", sms="100/day", subs=("hellotunes",)),
    T(3, UNL, 349, "28 days", calls=U, data="1.5 GB/day", sms="100/day", subs=("apollo", "hellotunes")),
    T(4, UNL, 379, "1 month", calls=U, data="2 GB/day", sms="100/day", subs=("apollo", "hellotunes"),
      remark=FIVE_G + "; calendar-month validity"),
    T(5, UNL, 409, "28 days", calls=U, data="2.5 GB/day", sms="100/day", subs=("xstream", "apollo"), remark=FIVE_G),
    T(6, UNL, 449, "28 days", calls=U, data="3 GB/day", sms="100/day", subs=("xstream", "apollo"), remark=FIVE_G),
    T(7, UNL, 579, "56 days", calls=U, data="1.5 GB/day", sms="100/day", subs=("apollo",), droppable=True),
    T(8, UNL, 649, "56 days", calls=U, data="2 GB/day", sms="100/day", subs=("apollo",), remark=FIVE_G),
    T(9, UNL, 509, "84 days", calls=U, data="6 GB", sms="900 total", subs=("hellotunes",)),
    T(10, UNL, 859, "84 days", calls=U, data="1.5 GB/day", sms="100/day", subs=("apollo",)),
    T(11, UNL, 979, "84 days", calls=U, data="2 GB/day", sms="100/day", subs=("xstream", "apollo"), remark=FIVE_G),
    T(12, UNL, 469, "84 days", calls=U, data="NA", sms="900 total", remark="Voice and SMS only (TRAI voice-only voucher)"),
    T(13, UNL, 155, "24 days", calls=U, data="1 GB", sms="300 total", only={"HR", "OR", "JK", "NE", "AS"},
      remark="Entry plan offered in select circles"),
    # ---- Data
    T(20, DATA, 22, "1 day", data="1 GB", remark="Requires an active base plan", droppable=True),
    T(21, DATA, 26, "1 day", data="1.5 GB", remark="Requires an active base plan"),
    T(22, DATA, 33, "1 day", data="2 GB", remark="Requires an active base plan"),
    T(23, DATA, 49, "1 day", data="20 GB", remark="Unlimited data capped at 20 GB"),
    T(24, DATA, 77, "Existing plan", data="5 GB", remark="Valid till the base plan expires"),
    T(25, DATA, 99, "2 days", data="20 GB/day", remark="Unlimited data capped at 20 GB/day", droppable=True),
    T(26, DATA, 121, "30 days", data="6 GB", droppable=True),
    T(27, DATA, 161, "30 days", data="12 GB"),
    T(28, DATA, 181, "30 days", data="15 GB", subs=("xstream",)),
    T(29, DATA, 211, "30 days", data="1 GB/day", benefit="1 GB/day data"),
    T(30, DATA, 361, "30 days", data="50 GB"),
    T(31, DATA, 65, "Existing plan", data="4 GB", only=SOUTH, remark="Circle offer; valid till the base plan expires"),
    # ---- Talktime / Top-up
    topup(40, 10, "7.47"),
    topup(41, 20, "14.95"),
    topup(42, 50, "39.37", droppable=True),
    topup(43, 100, "81.75"),
    topup(44, 500, "423.73"),
    topup(45, 1000, "847.46"),
    # ---- Annual (the 3599 / 3999 annual packs exceed the AT limit of 2500 and are not listed)
    T(50, ANNUAL, 1999, "365 days", calls=U, data="24 GB", sms="3600 total", subs=("apollo", "hellotunes")),
    T(51, ANNUAL, 1849, "365 days", calls=U, data="NA", sms="3600 total", remark="Voice and SMS only (TRAI voice-only voucher)"),
    # ---- Entertainment / OTT
    T(60, OTT, 398, "28 days", calls=U, data="2 GB/day", sms="100/day", subs=("hotstar28", "xstream"), remark=FIVE_G),
    T(61, OTT, 838, "56 days", calls=U, data="3 GB/day", sms="100/day", subs=("primelite", "xstream"), remark=FIVE_G),
    T(62, OTT, 1029, "84 days", calls=U, data="2 GB/day", sms="100/day", subs=("hotstar3m", "xstream"), remark=FIVE_G),
    T(63, OTT, 1199, "84 days", calls=U, data="2.5 GB/day", sms="100/day", subs=("primelite", "xstream"), remark=FIVE_G),
    T(64, OTT, 1798, "84 days", calls=U, data="3 GB/day", sms="100/day", subs=("netflixbasic", "xstream"), remark=FIVE_G),
    T(65, OTT, 279, "1 month", data="1 GB", subs=("netflixbasic", "zee5", "hotstar28"),
      remark="Data pack; requires an active base plan"),
    T(66, OTT, 149, "30 days", data="1 GB", subs=("xstream",), remark="Requires an active base plan"),
    T(67, OTT, 100, "30 days", data="5 GB", subs=("xstream",), remark="Requires an active base plan", droppable=True),
    T(68, OTT, 151, "30 days", data="4 GB", subs=("applemusic6m",), remark="Requires an active base plan",
      droppable=True),
    # ---- International Roaming (representative packs within the AT limit)
    T(80, IR, 649, "1 day", calls="100 min", data="500 MB", sms="20 total", remark="Incoming SMS free; 180+ countries"),
    T(81, IR, 899, "10 days", calls="100 min", data="1 GB", sms="20 total", remark="Incoming SMS free; 180+ countries"),
    T(82, IR, 2499, "30 days", calls="200 min", data="5 GB", sms="100 total", remark="Incoming SMS free; 180+ countries"),
]

VI = [
    # ---- Unlimited (post 4 July 2024 tariff)
    T(1, UNL, 199, "28 days", calls=U, data="2 GB", sms="300 total"),
    T(2, UNL, 299, "28 days", calls=U, data="1 GB/day", sms="100/day"),
    T(3, UNL, 349, "28 days", calls=U, data="1.5 GB/day", sms="100/day",
      remark="Hero Unlimited: Binge All Night, Weekend Data Rollover, Data Delights"),
    T(4, UNL, 365, "28 days", calls=U, data="2 GB/day", sms="100/day",
      remark="Hero Unlimited: Binge All Night, Weekend Data Rollover, Data Delights"),
    T(5, UNL, 379, "1 month", calls=U, data="2 GB/day", sms="100/day", remark="Calendar-month validity", droppable=True),
    T(6, UNL, 409, "28 days", calls=U, data="2.5 GB/day", sms="100/day", remark="Hero Unlimited benefits"),
    T(7, UNL, 449, "28 days", calls=U, data="3 GB/day", sms="100/day", remark="Hero Unlimited benefits"),
    T(8, UNL, 579, "56 days", calls=U, data="1.5 GB/day", sms="100/day", remark="Hero Unlimited benefits", droppable=True),
    T(9, UNL, 649, "56 days", calls=U, data="2 GB/day", sms="100/day", remark="Hero Unlimited benefits"),
    T(10, UNL, 509, "84 days", calls=U, data="6 GB", sms="1000 total"),
    T(11, UNL, 859, "84 days", calls=U, data="1.5 GB/day", sms="100/day", remark="Hero Unlimited benefits"),
    T(12, UNL, 979, "84 days", calls=U, data="2 GB/day", sms="100/day", remark="Hero Unlimited benefits"),
    T(13, UNL, 470, "84 days", calls=U, data="NA", sms="900 total", remark="Voice and SMS only (TRAI voice-only voucher)"),
    T(14, UNL, 201, "28 days", calls=U, data="5 GB", sms="300 total", subs=("sunnxt",), only={"TN", "CH", "KL", "KA", "AP"},
      remark="Circle offer"),
    # ---- Data
    T(20, DATA, 22, "1 day", data="1 GB", remark="Requires an active base plan"),
    T(21, DATA, 26, "1 day", data="1.5 GB", remark="Requires an active base plan", droppable=True),
    T(22, DATA, 33, "2 days", data="2 GB", remark="Requires an active base plan"),
    T(23, DATA, 48, "3 days", data="6 GB", droppable=True),
    T(24, DATA, 49, "1 day", data="20 GB", remark="Unlimited data capped at 20 GB"),
    T(25, DATA, 75, "7 days", data="6 GB", droppable=True),
    T(26, DATA, 118, "28 days", data="12 GB"),
    T(27, DATA, 298, "28 days", data="50 GB"),
    T(28, DATA, 418, "56 days", data="100 GB"),
    T(29, DATA, 23, "1 day", data="1.2 GB", only={"MH", "MU", "GJ"}, remark="Circle offer"),
    # ---- Talktime / Top-up
    topup(40, 10, "7.47"),
    topup(41, 20, "14.95"),
    topup(42, 30, "22.42", droppable=True),
    topup(43, 50, "39.37"),
    topup(44, 100, "81.75"),
    topup(45, 500, "423.73"),
    topup(46, 1000, "847.46"),
    topup(47, 5000, "4237.29"),
    # ---- Annual
    T(50, ANNUAL, 1999, "365 days", calls=U, data="24 GB", sms="3600 total"),
    T(51, ANNUAL, 3499, "365 days", calls=U, data="1.5 GB/day", sms="100/day", remark="Hero Unlimited benefits"),
    T(52, ANNUAL, 3699, "365 days", calls=U, data="2 GB/day", sms="100/day", subs=("hotstar1y",), remark="Hero Unlimited benefits"),
    T(53, ANNUAL, 3799, "365 days", calls=U, data="2 GB/day", sms="100/day", subs=("primelite1y",), remark="Hero Unlimited benefits"),
    T(54, ANNUAL, 1849, "365 days", calls=U, data="NA", sms="3600 total", remark="Voice and SMS only (TRAI voice-only voucher)"),
    # ---- Entertainment / OTT
    T(60, OTT, 95, "14 days", data="4 GB", subs=("sonyliv",), remark="Requires an active base plan"),
    T(61, OTT, 151, "30 days", data="4 GB", subs=("hotstar3m",), remark="Requires an active base plan"),
    T(62, OTT, 169, "30 days", data="8 GB", subs=("hotstar3m",), remark="Requires an active base plan", droppable=True),
    T(63, OTT, 175, "28 days", data="10 GB", subs=("vimtv",), remark="Requires an active base plan"),
    T(64, OTT, 202, "30 days", data="5 GB", subs=("vimtvlite",), remark="Requires an active base plan", droppable=True),
    T(65, OTT, 408, "28 days", calls=U, data="2 GB/day", sms="100/day", subs=("sonyliv",), remark="Hero Unlimited benefits"),
    T(66, OTT, 903, "90 days", calls=U, data="2 GB/day", sms="100/day", subs=("sonyliv",), remark="Hero Unlimited benefits"),
    T(67, OTT, 994, "84 days", calls=U, data="2 GB/day", sms="100/day", subs=("hotstar3m",), remark="Hero Unlimited benefits"),
    T(68, OTT, 1599, "84 days", calls=U, data="2.5 GB/day", sms="100/day", subs=("netflixbasic",), remark="Hero Unlimited benefits"),
    # ---- International Roaming (representative packs)
    T(80, IR, 599, "1 day", calls="100 min", data="1 GB", sms="100 total", remark="Popular destinations; incoming calls included"),
    T(81, IR, 2999, "14 days", calls="200 min", data="5 GB", sms="100 total", remark="Popular destinations; incoming calls included"),
    T(82, IR, 3999, "30 days", calls="300 min", data="10 GB", sms="100 total", remark="Popular destinations; incoming calls included"),
]

JIO = [
    # ---- Unlimited (post 3 July 2024 tariff)
    T(1, UNL, 189, "28 days", calls=U, data="2 GB", sms="300 total", subs=("jiotv", "jiocinema", "jiocloud")),
    T(2, UNL, 199, "18 days", calls=U, data="1.5 GB/day", sms="100/day", subs=("jiotv", "jiocinema", "jiocloud"), droppable=True),
    T(3, UNL, 239, "22 days", calls=U, data="1.5 GB/day", sms="100/day", subs=("jiotv", "jiocinema", "jiocloud")),
    T(4, UNL, 249, "28 days", calls=U, data="1 GB/day", sms="100/day", subs=("jiotv", "jiocinema", "jiocloud")),
    T(5, UNL, 299, "28 days", calls=U, data="1.5 GB/day", sms="100/day", subs=("jiotv", "jiocinema", "jiocloud")),
    T(6, UNL, 349, "28 days", calls=U, data="2 GB/day", sms="100/day", subs=("jiotv", "jiocinema", "jiocloud"), remark=FIVE_G),
    T(7, UNL, 399, "28 days", calls=U, data="2.5 GB/day", sms="100/day", subs=("jiotv", "jiocinema", "jiocloud"), remark=FIVE_G),
    T(8, UNL, 449, "28 days", calls=U, data="3 GB/day", sms="100/day", subs=("jiotv", "jiocinema", "jiocloud"), remark=FIVE_G),
    T(9, UNL, 579, "56 days", calls=U, data="1.5 GB/day", sms="100/day", subs=("jiotv", "jiocinema", "jiocloud"), droppable=True),
    T(10, UNL, 629, "56 days", calls=U, data="2 GB/day", sms="100/day", subs=("jiotv", "jiocinema", "jiocloud"), remark=FIVE_G),
    T(11, UNL, 479, "84 days", calls=U, data="6 GB", sms="1000 total", subs=("jiotv", "jiocinema", "jiocloud")),
    T(12, UNL, 799, "84 days", calls=U, data="1.5 GB/day", sms="100/day", subs=("jiotv", "jiocinema", "jiocloud")),
    T(13, UNL, 859, "84 days", calls=U, data="2 GB/day", sms="100/day", subs=("jiotv", "jiocinema", "jiocloud"), remark=FIVE_G),
    T(14, UNL, 1199, "84 days", calls=U, data="3 GB/day", sms="100/day", subs=("jiotv", "jiocinema", "jiocloud"), remark=FIVE_G),
    T(15, UNL, 448, "84 days", calls=U, data="NA", sms="1000 total", subs=("jiotv", "jiocinema", "jiocloud"),
      remark="Voice and SMS only (TRAI voice-only voucher)"),
    T(16, UNL, 198, "14 days", calls=U, data="2 GB/day", sms="100/day", subs=("jiotv", "jiocinema", "jiocloud"), remark=FIVE_G),
    T(17, UNL, 1028, "84 days", calls=U, data="2 GB/day", sms="100/day", subs=("jiotv", "jiocinema", "jiocloud"),
      only={"DL", "MU", "KO", "CH", "KA", "MH", "AP"}, remark=FIVE_G + "; Swiggy One Lite 3 months (select cities)"),
    # ---- Data
    T(20, DATA, 11, "1 hour", data="10 GB", remark="Requires an active base plan"),
    T(21, DATA, 19, "Existing plan", data="1 GB", remark="Valid till the base plan expires"),
    T(22, DATA, 29, "Existing plan", data="2 GB", remark="Valid till the base plan expires"),
    T(23, DATA, 49, "1 day", data="25 GB", remark="Unlimited data capped at 25 GB", droppable=True),
    T(24, DATA, 69, "7 days", data="6 GB", droppable=True),
    T(25, DATA, 139, "7 days", data="12 GB"),
    T(26, DATA, 289, "30 days", data="40 GB"),
    T(27, DATA, 359, "30 days", data="50 GB"),
    T(28, DATA, 601, "365 days", data="Unlimited 5G", benefit="Unlimited 5G data upgrade voucher (12 monthly vouchers)",
      remark="For 1 GB/day and 1.5 GB/day base plans in 5G areas"),
    # ---- Talktime / Top-up
    topup(40, 10, "7.47"),
    topup(41, 20, "14.95"),
    topup(42, 50, "39.37", droppable=True),
    topup(43, 100, "81.75"),
    topup(44, 500, "420.73"),
    topup(45, 1000, "844.46"),
    topup(46, 501, "424.58", remark="ISD talktime; usable for international calls only"),
    # ---- Annual
    T(50, ANNUAL, 1899, "336 days", calls=U, data="24 GB", sms="3600 total", subs=("jiotv", "jiocinema", "jiocloud")),
    T(51, ANNUAL, 3599, "365 days", calls=U, data="2.5 GB/day", sms="100/day", subs=("jiotv", "jiocinema", "jiocloud"), remark=FIVE_G),
    T(52, ANNUAL, 3999, "365 days", calls=U, data="2.5 GB/day", sms="100/day", subs=("fancode", "jiotv", "jiocinema", "jiocloud"),
      remark=FIVE_G),
    T(53, ANNUAL, 1748, "336 days", calls=U, data="NA", sms="3600 total", subs=("jiotv", "jiocinema", "jiocloud"),
      remark="Voice and SMS only (TRAI voice-only voucher)"),
    T(54, ANNUAL, 2025, "200 days", calls=U, data="2.5 GB/day", sms="100/day", subs=("jiotv", "jiocinema", "jiocloud"),
      remark=FIVE_G + "; New Year offer", droppable=True),
    # ---- Entertainment / OTT
    T(60, OTT, 175, "28 days", data="10 GB", subs=("jiotvprem", "sonyliv", "zee5", "jiocinemaprem"),
      remark="Data pack; requires an active base plan"),
    T(61, OTT, 329, "28 days", calls=U, data="1.5 GB/day", sms="100/day", subs=("jiosaavn", "jiotv", "jiocinema")),
    T(62, OTT, 445, "28 days", calls=U, data="2 GB/day", sms="100/day", subs=("jiotvprem", "sonyliv", "zee5", "jiocinemaprem"),
      remark=FIVE_G),
    T(63, OTT, 949, "84 days", calls=U, data="2 GB/day", sms="100/day", subs=("hotstar3m", "jiotv", "jiocloud"), remark=FIVE_G),
    T(64, OTT, 1029, "84 days", calls=U, data="2 GB/day", sms="100/day", subs=("primelite", "jiotv", "jiocinema"), remark=FIVE_G),
    T(65, OTT, 1049, "84 days", calls=U, data="2 GB/day", sms="100/day", subs=("sonyliv", "zee5", "jiotv"), remark=FIVE_G),
    T(66, OTT, 1299, "84 days", calls=U, data="2 GB/day", sms="100/day", subs=("netflixmobile", "jiotv", "jiocinema"), remark=FIVE_G),
    T(67, OTT, 1799, "84 days", calls=U, data="3 GB/day", sms="100/day", subs=("netflixbasic", "jiotv", "jiocinema"), remark=FIVE_G),
    # ---- International Roaming (representative packs)
    T(80, IR, 575, "1 day", calls="100 min", data="1 GB", sms="20 total", remark="Incoming calls free; select countries"),
    T(81, IR, 1101, "7 days", calls="150 min", data="2 GB", sms="100 total", remark="Incoming calls free; select countries"),
    T(82, IR, 2875, "30 days", calls="250 min", data="5 GB", sms="100 total", remark="Incoming calls free; select countries"),
]

# BSNL: no July 2024 hike; plans are published circle-wise, grouped here by BSNL zone.
MTNL_AREA = {"DL", "MU"}   # historic MTNL areas: BSNL sells only a reduced core set there
BSNL = [
    # ---- Unlimited / STVs
    T(1, UNL, 107, "35 days", calls="200 min", data="3 GB", sms="NA"),
    T(2, UNL, 108, "28 days", calls=U, data="1 GB/day", sms="NA", only=SOUTH | EAST, remark="First recharge offer"),
    T(3, UNL, 147, "30 days", calls=U, data="10 GB", sms="NA"),
    T(4, UNL, 153, "26 days", calls=U, data="1 GB/day", sms="100/day", exclude=MTNL_AREA, droppable=True),
    T(5, UNL, 187, "28 days", calls=U, data="2 GB/day", sms="100/day", price={c: 184 for c in EAST}),
    T(6, UNL, 197, "70 days", calls=U, data="2 GB/day", sms="100/day",
      benefit="First 18 days: Unlimited calls, 2 GB/day, 100 SMS/day; then incoming only",
      remark="Benefits for the first 18 days"),
    T(7, UNL, 199, "30 days", calls=U, data="2 GB/day", sms="100/day"),
    T(8, UNL, 229, "1 month", calls=U, data="2 GB/day", sms="100/day", exclude=MTNL_AREA),
    T(9, UNL, 249, "45 days", calls=U, data="2 GB/day", sms="100/day", exclude=MTNL_AREA, droppable=True),
    T(10, UNL, 298, "52 days", calls=U, data="1 GB/day", sms="100/day", exclude=MTNL_AREA, droppable=True),
    T(11, UNL, 319, "65 days", calls=U, data="10 GB", sms="300 total"),
    T(12, UNL, 347, "54 days", calls=U, data="2 GB/day", sms="100/day", only=SOUTH | (WEST - MTNL_AREA),
      validity_in={"KL": "56 days"}),
    T(13, UNL, 397, "150 days", calls=U, data="2 GB/day", sms="100/day",
      benefit="First 30 days: Unlimited calls, 2 GB/day, 100 SMS/day; then incoming only",
      remark="Benefits for the first 30 days"),
    T(14, UNL, 399, "80 days", calls=U, data="1 GB/day", sms="100/day", exclude=MTNL_AREA, validity_in={c: "84 days" for c in SOUTH}),
    T(15, UNL, 485, "80 days", calls=U, data="1.5 GB/day", sms="100/day", price={c: 482 for c in NORTH - MTNL_AREA}),
    T(16, UNL, 499, "75 days", calls=U, data="2 GB/day", sms="100/day", subs=("bitv",), exclude=MTNL_AREA),
    T(17, UNL, 599, "84 days", calls=U, data="3 GB/day", sms="100/day", subs=("zing",), subs_in={"RJ": ("lokdhun",)}),
    T(18, UNL, 666, "105 days", calls=U, data="2 GB/day", sms="100/day", only=SOUTH),
    T(19, UNL, 797, "300 days", calls=U, data="2 GB/day", sms="100/day",
      benefit="First 60 days: Unlimited calls, 2 GB/day, 100 SMS/day; then incoming only",
      remark="Benefits for the first 60 days"),
    T(20, UNL, 997, "160 days", calls=U, data="2 GB/day", sms="100/day", subs=("zing", "hardy"), exclude=MTNL_AREA),
    T(21, UNL, 94, "30 days", calls="200 min", data="3 GB", sms="NA", only=(NORTH | WEST) - MTNL_AREA),
    # ---- Data
    T(30, DATA, 16, "1 day", data="2 GB"),
    T(31, DATA, 58, "7 days", data="2 GB/day", remark="Requires an active base plan"),
    T(32, DATA, 98, "18 days", data="2 GB/day", subs=("zing",), validity_in={c: "22 days" for c in SOUTH}),
    T(33, DATA, 151, "28 days", data="40 GB", exclude=MTNL_AREA, droppable=True),
    T(34, DATA, 198, "40 days", data="2 GB/day", exclude=MTNL_AREA),
    T(35, DATA, 251, "28 days", data="70 GB", subs=("zing",), subs_in={"RJ": ("lokdhun",)}),
    T(36, DATA, 411, "90 days", data="2 GB/day", exclude=MTNL_AREA, droppable=True),
    T(37, DATA, 1515, "365 days", data="2 GB/day", remark="Data only; speed 40 kbps after daily limit"),
    # ---- Talktime / Top-up
    topup(40, 10, "7.47"),
    topup(41, 20, "14.95", droppable=True),
    topup(42, 50, "39.37"),
    topup(43, 100, "81.75"),
    topup(44, 500, "420.73"),
    topup(45, 110, "110.00", only=SOUTH | {"KO", "WB"}, remark="Full talktime offer in this circle"),
    topup(46, 220, "220.00", only=SOUTH, remark="Full talktime offer in this circle"),
    topup(47, 550, "550.00", only={"KL", "TN", "CH"}, remark="Full talktime offer in this circle"),
    topup(48, 1100, "1100.00", only={"KL", "KA"}, remark="Full talktime offer in this circle"),
    # ---- Annual (the 2399 and 2999 annual plans exceed the BS limit of 2000 and are not listed)
    T(50, ANNUAL, 1198, "365 days", calls="300 min/month", data="3 GB/month", sms="30/month", exclude={"NE", "AS", "JK"}),
    T(51, ANNUAL, 1499, "336 days", calls=U, data="24 GB", sms="100/day"),
    T(52, ANNUAL, 1999, "365 days", calls=U, data="600 GB", sms="100/day", subs=("bitv", "zing", "hardy"),
      subs_in={"RJ": ("lokdhun",)}),
    T(53, ANNUAL, 1251, "365 days", calls=U, data="1 GB/day", sms="100/day", only={"KL", "TN", "CH"}, remark="Circle plan"),
    # ---- Entertainment / OTT
    T(60, OTT, 247, "30 days", calls=U, data="50 GB", sms="100/day", subs=("zing", "hardy", "bitv"),
      subs_in={"RJ": ("lokdhun",)}),
    T(61, OTT, 299, "30 days", calls=U, data="3 GB/day", sms="100/day", subs=("bitv",), exclude=MTNL_AREA),
    T(62, OTT, 99, "30 days", data="NA", subs=("bitv", "zing"), only=SOUTH | EAST,
      benefit="BiTV live channels and Zing Music", remark="Requires an active base plan"),
]

OPERATOR_TEMPLATES = {"AT": AIRTEL, "VI": VI, "BS": BSNL, "RJ": JIO}


# --------------------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------------------

def stable_hash(*parts):
    return int.from_bytes(hashlib.sha256("|".join(parts).encode("utf-8")).digest()[:8], "big")


def plan_id(op, circle, template_no):
    return OPERATORS[op][0] * 10_000_000 + CIRCLE_INDEX[circle] * 100_000 + template_no


def dropped_templates(op, circle, templates):
    """0, 1 or 2 'droppable' templates not sold in this circle, chosen by a stable hash."""
    droppable = [t for t in templates if t.droppable and t.offered_in(circle)]
    k = stable_hash(op, circle, "drop-count") % 3
    droppable.sort(key=lambda t: stable_hash(op, circle, str(t.no)))
    return {t.no for t in droppable[:k]}


def subscription(key):
    name, desc, logo = SUBS[key]
    return {"name": name, "description": desc, "logo": logo}


def build_plan(op, circle, t):
    amount = t.price.get(circle, t.amount)
    validity = t.validity_in.get(circle, t.validity)
    keys = list(t.subs) + [k for k in t.subs_in.get(circle, ()) if k not in t.subs]
    subs = [subscription(k) for k in keys]
    benefit = t.benefit
    if benefit is None:
        extra = " + ".join(s["name"] for s in subs)
        benefit = voice_data_benefit(t.calls, t.data, t.sms, extra)
    return {
        "plan_id": plan_id(op, circle, t.no),
        "amount": amount,
        "validity": validity,
        "talktime": t.talktime,
        "benefit": benefit,
        "calls": t.calls,
        "sms": t.sms,
        "data": t.data,
        "remark": t.remark,
        "subscriptions": subs,
    }


def build_catalogue():
    entries = []
    for op, templates in OPERATOR_TEMPLATES.items():
        for circle in CIRCLES:
            drop = dropped_templates(op, circle, templates)
            by_cat = {c: [] for c in CATEGORY_ORDER}
            for t in templates:
                if t.offered_in(circle) and t.no not in drop:
                    by_cat[t.cat].append(build_plan(op, circle, t))
            categories = []
            for c in CATEGORY_ORDER:
                items = sorted(by_cat[c], key=lambda p: (p["amount"], p["plan_id"]))
                if items:
                    categories.append({"name": c, "items": items})
            entries.append({"operator_code": op, "circle_code": circle, "categories": categories})
    return {"catalogue_version": CATALOGUE_VERSION, "generated_by": GENERATED_BY, "entries": entries}


def svg_badge(text, colour):
    size = {1: 30, 2: 26, 3: 20, 4: 16}.get(len(text), 14)
    # Baseline computed here (no dy/dominant-baseline) so QtSvg's SVG Tiny renderer centres it.
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">\n'
        '  <rect x="2" y="2" width="60" height="60" rx="12" ry="12" fill="%s"/>\n'
        '  <rect x="2" y="2" width="60" height="60" rx="12" ry="12" fill="none" stroke="#ffffff" '
        'stroke-opacity="0.35" stroke-width="2"/>\n'
        '  <text x="32" y="%d" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" '
        'font-weight="bold" font-size="%d" fill="#ffffff">%s</text>\n'
        '</svg>\n' % (colour, 32 + round(size * 0.35), size, escape(text))
    )


def write_logos(rewrite):
    os.makedirs(LOGO_DIR, exist_ok=True)
    for name, (text, colour) in sorted(LOGOS.items()):
        path = os.path.join(LOGO_DIR, name)
        if rewrite or not os.path.exists(path):
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(svg_badge(text, colour))


def write_catalogue(cat):
    with open(OUT_PATH, "w", encoding="utf-8", newline="\n") as f:
        json.dump(cat, f, ensure_ascii=False, indent=None, separators=(",", ":"))
        f.write("\n")


# --------------------------------------------------------------------------------------
# Self-check
# --------------------------------------------------------------------------------------

STRING_FIELDS = ("validity", "talktime", "benefit", "calls", "sms", "data", "remark")


def self_check(cat):
    errors = []

    def err(msg):
        errors.append(msg)

    # Template tables: unique numbers, fit in the id scheme, amounts within limits.
    for op, templates in OPERATOR_TEMPLATES.items():
        nos = [t.no for t in templates]
        if len(nos) != len(set(nos)):
            err("%s: duplicate template numbers" % op)
        for t in templates:
            if not 1 <= t.no <= 99_999:
                err("%s: template number %d outside 1..99999" % (op, t.no))
            for k in list(t.subs) + [k for ks in t.subs_in.values() for k in ks]:
                if k not in SUBS:
                    err("%s/%d: unknown subscription %s" % (op, t.no, k))

    # Limits agree with resources/data/operators.json when it is present.
    if os.path.exists(OPERATORS_JSON):
        try:
            with open(OPERATORS_JSON, encoding="utf-8") as f:
                ops = {o["code"]: o for o in json.load(f)["operators"]}
            for op, (_, lo, hi) in OPERATORS.items():
                o = ops.get(op)
                if o is None or (o.get("min_amount"), o.get("max_amount")) != (lo, hi):
                    err("%s: limits differ from resources/data/operators.json" % op)
        except (OSError, ValueError, KeyError, TypeError) as e:
            err("cannot read operators.json: %s" % e)

    if set(cat) != {"catalogue_version", "generated_by", "entries"}:
        err("top-level keys: %s" % sorted(cat))
    seen_pairs = set()
    seen_ids = set()
    for e in cat["entries"]:
        op, circle = e["operator_code"], e["circle_code"]
        pair = (op, circle)
        if op not in OPERATORS or circle not in CIRCLE_INDEX:
            err("unknown pair %s" % (pair,))
            continue
        if pair in seen_pairs:
            err("duplicate pair %s" % (pair,))
        seen_pairs.add(pair)
        _, lo, hi = OPERATORS[op]
        n = 0
        names = [c["name"] for c in e["categories"]]
        if len(names) != len(set(names)) or any(nm not in CATEGORY_ORDER for nm in names):
            err("%s: bad categories %s" % (pair, names))
        for c in e["categories"]:
            if not c["items"]:
                err("%s: empty category %s" % (pair, c["name"]))
            for p in c["items"]:
                n += 1
                pid, amt = p["plan_id"], p["amount"]
                if type(pid) is not int or pid <= 0:
                    err("%s: bad plan_id %r" % (pair, pid))
                if pid in seen_ids:
                    err("duplicate plan_id %r" % pid)
                seen_ids.add(pid)
                if type(amt) is not int or not lo <= amt <= hi:
                    err("%s: plan %r amount %r outside %d..%d" % (pair, pid, amt, lo, hi))
                for fld in STRING_FIELDS:
                    if not isinstance(p.get(fld), str):
                        err("%s: plan %r field %s not a string" % (pair, pid, fld))
                for fld in ("validity", "talktime", "benefit", "calls", "sms", "data"):
                    if isinstance(p.get(fld), str) and not p[fld]:
                        err("%s: plan %r field %s empty" % (pair, pid, fld))
                if not isinstance(p.get("subscriptions"), list):
                    err("%s: plan %r subscriptions not a list" % (pair, pid))
                    continue
                for s in p["subscriptions"]:
                    if set(s) != {"name", "description", "logo"} or not all(isinstance(v, str) and v for v in s.values()):
                        err("%s: plan %r bad subscription %r" % (pair, pid, s))
                    elif not os.path.isfile(os.path.join(LOGO_DIR, s["logo"])):
                        err("%s: plan %r logo missing: %s" % (pair, pid, s["logo"]))
        if not 20 <= n <= 60:
            err("%s: %d plans (must be 20..60)" % (pair, n))
    expected = {(o, c) for o in OPERATORS for c in CIRCLES}
    if seen_pairs != expected:
        err("missing pairs: %s" % sorted(expected - seen_pairs))
    # Every logo referenced by SUBS has an entry in LOGOS, and vice versa.
    used = {v[2] for v in SUBS.values()}
    if used != set(LOGOS):
        err("logo table mismatch: %s" % sorted(used ^ set(LOGOS)))
    return errors


def summary(cat):
    counts = {}
    for e in cat["entries"]:
        counts[(e["operator_code"], e["circle_code"])] = sum(len(c["items"]) for c in e["categories"])
    total = sum(counts.values())
    lo_pair = min(counts, key=counts.get)
    hi_pair = max(counts, key=counts.get)
    lines = ["plans: %d in %d (operator, circle) pairs; min %d %s, max %d %s"
             % (total, len(counts), counts[lo_pair], "/".join(lo_pair), counts[hi_pair], "/".join(hi_pair))]
    for op in OPERATORS:
        vals = [counts[(op, c)] for c in CIRCLES]
        lines.append("  %s: %d plans, per circle %d..%d" % (op, sum(vals), min(vals), max(vals)))
    if os.path.exists(OUT_PATH):
        lines.append("  %s: %d bytes" % (os.path.relpath(OUT_PATH), os.path.getsize(OUT_PATH)))
    return "\n".join(lines)


def main(argv):
    if "--check" in argv:
        with open(OUT_PATH, encoding="utf-8") as f:
            cat = json.load(f)
    else:
        write_logos("--rewrite-logos" in argv)
        cat = build_catalogue()
        write_catalogue(cat)
        # Validate what was actually written, not only the in-memory object.
        with open(OUT_PATH, encoding="utf-8") as f:
            cat = json.load(f)
    errors = self_check(cat)
    if errors:
        for e in errors:
            print("SELF-CHECK FAILED: " + e, file=sys.stderr)
        return 1
    print(summary(cat))
    print("self-check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
