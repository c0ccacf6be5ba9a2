# tests/xfcc_scid.tcl: Scid's own Xfcc client, driven without its windows.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Loads Debian's Scid correspondence code (tcl/tools/correspondence.tcl,
# unmodified) in tclsh, with stand-ins for the parts of Scid's GUI and
# database it touches while loading, then runs what its "Retrieve Games"
# and "Send Move" menu entries run for the Xfcc server (Scid's internal
# Xfcc handling): ::Xfcc::ReadConfig and ::Xfcc::ProcessAll (the games
# into the Inbox as PGN, the state into xfccstate), or ::Xfcc::Send.
# Scid's console lines and message boxes are printed, one per line.
#
# usage: HOME=DIR tclsh xfcc_scid.tcl CORRESPONDENCE_TCL fetch
#        HOME=DIR tclsh xfcc_scid.tcl CORRESPONDENCE_TCL send SERVER GAME \
#            MOVECOUNT MOVE COMMENT RESIGN ACCEPTDRAW OFFERDRAW CLAIMDRAW
# Scid's directories are under $HOME/.scid4.7, as Scid makes them.

package require http
package require tdom

set scidDataDir [file join $env(HOME) .scid4.7 data]
set scidConfigDir [file join $env(HOME) .scid4.7 config]
set scidVersion 4.7.4
set scidVersionDate "Debian"
file mkdir $scidDataDir $scidConfigDir

# Stand-ins for Scid's GUI and database while the file loads.
proc scidConfigFile {name} { return [file join $::scidConfigDir $name] }
namespace eval ::splash { proc add {args} {} }
namespace eval ::CorrespondenceChess {
	proc updateConsole {line} { puts "console: $line" }
}
proc tk {args} { return x11 }
proc tk_messageBox {args} { puts "messagebox: [lindex $args end]"; return ok }
proc sc_base {args} { return 1 }

source [lindex $argv 0]
# The file defines its console as a window: print instead.
proc ::CorrespondenceChess::updateConsole {line} { puts "console: $line" }

switch -- [lindex $argv 1] {
	fetch {
		::Xfcc::ReadConfig $::CorrespondenceChess::xfccrcfile
		::Xfcc::ProcessAll $::CorrespondenceChess::Inbox
	}
	send {
		::Xfcc::ReadConfig $::CorrespondenceChess::xfccrcfile
		::Xfcc::Send {*}[lrange $argv 2 end]
	}
}
