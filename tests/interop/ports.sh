# shellcheck shell=bash
# Loopback ports for the interop scripts that start servers of their own (multiprocess/run.sh,
# operations/): free ones, and waiting until one is listened on. Sourced; needs node.

# N distinct free loopback ports, each held open until all are known (two separate lookups could
# return the same port, the first not being held).
free_ports() {
  node -e "const net=require('net');const n=+process.argv[1];const held=[];
const next=()=>{if(held.length===n){console.log(held.map((s)=>s.address().port).join(' '));held.forEach((s)=>s.close());return;}
const s=net.createServer().listen(0,'127.0.0.1',()=>{held.push(s);next();});};next();" "$1"
}

# Waits (at most 60 s) until something listens on loopback port $1; else says so and returns 1.
wait_port() {
  for _ in $(seq 1 600); do
    if node -e "require('net').connect($1,'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))"; then
      return 0
    fi
    sleep 0.1
  done
  echo "nothing listens on port $1" >&2
  return 1
}
