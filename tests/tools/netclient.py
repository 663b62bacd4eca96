#!/usr/bin/env python3
# tests/tools/netclient.py: a crafted blktrace network client for tests
# (issue 15): speaks blktrace 1.2.0's protocol in either byte order and can lie.
# usage: netclient.py PORT [be] STEP...   steps, in order, on one connection:
#   open:NAME:CPU:MAXCPUS        header len 0, waits for the 64-byte ack
#   data:NAME:CPU:MAXCPUS:FILE   header len = size of FILE, then FILE
#   raw:NAME:CPU:MAXCPUS:LEN:FILE  header says LEN, sends FILE (a lie or a cut)
#   close:NAME:DROPS:MAXCPUS     header len 1, cpu = DROPS, waits for the ack
#   magic:HEX                    the next header's magic
#   conn                         a new connection from here on (the old stays)
# NC_HOST: the address to connect from (127.0.0.1; 127.0.0.2 is another client)
# NAME may hold \xNN escapes; % stands for / (the step separator is :)
#   sleep:SECS
#   wait:FILE:TEXT               until FILE holds TEXT (at most 600 s), e.g. another
#                                client's connection in a server's output
# Prints each ack as "ack len=N cpu=N name=NAME" (or "no ack").
import os, socket, struct, sys, time

port = int(sys.argv[1])
args = sys.argv[2:]
order = '<'
if args and args[0] == 'be':
    order, args = '>', args[1:]
magic = 0x65617407
def connect():	# from NC_HOST (127.0.0.1; 127.0.0.2 is another client machine)
    c = socket.socket()
    c.bind((os.environ.get('NC_HOST', '127.0.0.1'), 0))
    c.connect(('127.0.0.1', port))
    return c

s = connect()
held = [s]	# earlier connections stay open until the end

def hdr(name, cpu, maxc, ln):
    global magic
    name = name.replace('%', '/').encode('latin-1').decode('unicode_escape').encode('latin-1')
    h = struct.pack(order + 'I32s7I', magic, name[:32], cpu, maxc, ln,
                    os.getpid(), 512 << 10, 4, 4096)
    magic = 0x65617407
    return h

def ack():
    b = b''
    while len(b) < 64:
        try:
            k = s.recv(64 - len(b))
        except OSError:
            k = b''
        if not k:
            print('no ack', flush=True)
            return
        b += k
    m = struct.unpack('<I', b[:4])[0]
    o = '<' if (m & 0xffffff00) == 0x65617400 else '>'
    f = struct.unpack(o + 'I32s7I', b)
    print('ack len=%d cpu=%d name=%s' % (f[4], f[2], f[1].rstrip(b'\0').decode('latin-1')), flush=True)

for a in args:
    f = a.split(':')
    try:
        if f[0] == 'open':
            s.sendall(hdr(f[1], int(f[2]), int(f[3]), 0)); ack()
        elif f[0] == 'data':
            d = open(f[4], 'rb').read()
            s.sendall(hdr(f[1], int(f[2]), int(f[3]), len(d)) + d)
        elif f[0] == 'raw':
            d = open(f[5], 'rb').read()
            s.sendall(hdr(f[1], int(f[2]), int(f[3]), int(f[4])) + d)
        elif f[0] == 'close':
            s.sendall(hdr(f[1], int(f[2]), int(f[3]), 1)); ack()
        elif f[0] == 'magic':
            magic = int(f[1], 16)
        elif f[0] == 'conn':
            s = connect(); held.append(s)
        elif f[0] == 'sleep':
            time.sleep(float(f[1]))
        elif f[0] == 'wait':
            t = time.time() + 600
            while time.time() < t:
                try:
                    if ':'.join(f[2:]).encode() in open(f[1], 'rb').read():
                        break
                except OSError:
                    pass
                time.sleep(0.2)
    except OSError as e:
        print('error', e.strerror, flush=True)
