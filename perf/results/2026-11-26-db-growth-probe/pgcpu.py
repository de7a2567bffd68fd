"""PostgreSQL CPU (all its processes, and the exited ones the postmaster collected) over WINDOW seconds.

    python3 pgcpu.py WINDOW
"""
import os, sys, time
HZ = os.sysconf("SC_CLK_TCK")
def stat(pid):
    s = open(f"/proc/{pid}/stat").read()
    comm = s[s.index("(")+1:s.rindex(")")]
    return comm, s[s.rindex(")")+2:].split()
def total():
    t = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit(): continue
        try:
            comm, f = stat(pid)
            if comm != "postgres": continue
            t += int(f[11]) + int(f[12])
            try: parent = stat(f[1])[0]
            except OSError: parent = ""
            if parent != "postgres":  # the postmaster: add its exited children's CPU
                t += int(f[13]) + int(f[14])
        except (OSError, ValueError): continue
    return t / HZ
w = float(sys.argv[1]); a = total(); time.sleep(w); b = total()
print(f"postgres CPU {100*(b-a)/w:.1f} % of a core over {w:.0f} s")
