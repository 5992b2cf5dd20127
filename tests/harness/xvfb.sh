# xvfb.sh - a private Xvfb for the shell tests and tools/main-job.sh; sourced
# (`. "$src/tests/harness/xvfb.sh"`), the shell counterpart of xvfb.c.
#
#   xvfb_start WxH DIR   start Xvfb, wait until it accepts connections, export
#                        DISPLAY; DIR receives its display number and log.
#                        Returns 1, with the reason in $xvfb_why, when Xvfb is
#                        missing, exits, or is not up within 60 s.
#   xvfb_stop            stop it and wait for it (safe to call twice, and
#                        from an EXIT trap)
#
# Why these options:
# - -displayfd: Xvfb picks a free display number itself (it binds the
#   abstract socket, which another server cannot hold at the same time) and
#   writes it once it accepts connections, so neither another X server on
#   :0/:1 nor a test running in parallel can race for the number, and no
#   sleep guesses when it is ready.
# - -noreset: without it the server resets whenever its last client
#   disconnects; a test runs several programs one after the other, and one
#   that connects while the server resets is refused ("cannot open display").
# - 60 s: Xvfb is up in well under a second on an idle machine; the bound
#   is for a loaded one (parallel make check, an ASan build beside it).
xvfb_pid=
xvfb_why=
xvfb_start() { # WxH DIR
    xvfb_why=
    command -v Xvfb >/dev/null 2>&1 || { xvfb_why="no Xvfb (apt-get install xvfb)"; return 1; }
    rm -f "$2/display"
    # A test shell killed before its EXIT trap runs (a timeout's SIGKILL)
    # must not leave the server behind: setpriv (util-linux) makes it die
    # with the shell.
    _xvfb_wrap=
    setpriv --pdeathsig TERM true 2>/dev/null && _xvfb_wrap="setpriv --pdeathsig TERM"
    $_xvfb_wrap Xvfb -displayfd 3 -screen 0 "$1x24" -nolisten tcp -noreset +extension GLX \
        3>"$2/display" >"$2/xvfb.log" 2>&1 &
    xvfb_pid=$!
    _xvfb_i=0
    # The number arrives with its newline in one write.
    until grep -q '^[0-9][0-9]*$' "$2/display" 2>/dev/null; do
        if ! kill -0 "$xvfb_pid" 2>/dev/null; then
            xvfb_why="Xvfb exited: $(tail -n 3 "$2/xvfb.log" | tr '\n' ' ')"
            xvfb_pid=
            return 1
        fi
        if [ "$_xvfb_i" -ge 600 ]; then
            xvfb_why="Xvfb did not report a display within 60 s"
            xvfb_stop
            return 1
        fi
        sleep 0.1
        _xvfb_i=$((_xvfb_i + 1))
    done
    DISPLAY=:$(cat "$2/display")
    export DISPLAY
}

xvfb_stop() {
    [ -n "$xvfb_pid" ] || return 0
    kill "$xvfb_pid" 2>/dev/null
    wait "$xvfb_pid" 2>/dev/null
    xvfb_pid=
    return 0
}
