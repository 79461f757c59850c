# Sourced by the benchmark scripts that compare with nginx: one nginx (worker_processes 1, as the server answers on
# one thread) serving the files of a directory on 127.0.0.1, sendfile on, access log off, every file as
# application/json with the given Cache-Control.
#
#   start_nginx WORK_DIR WWW_DIR CACHE_CONTROL
#
# Sets nginx_pid and nginx_url (http://127.0.0.1:port); the config and logs go to WORK_DIR/nginx. Exits the script
# if nginx does not come up. NGINX (default /usr/sbin/nginx) and NGINX_WORKERS (1) choose the binary and workers.
start_nginx() {
    local work=$1 www=$2 cache_control=$3 port bin="${NGINX:-/usr/sbin/nginx}" first
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
    mkdir -p "$work/nginx/logs" "$work/nginx/tmp"
    # nginx's worker drops root privileges (to "nobody"), so the files must be world-readable.
    chmod a+rx "$work" "$www"
    chmod a+r "$www"/*
    cat >"$work/nginx/nginx.conf" <<NGINX
worker_processes ${NGINX_WORKERS:-1};
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    client_body_temp_path $work/nginx/tmp/body;
    proxy_temp_path $work/nginx/tmp/proxy;
    fastcgi_temp_path $work/nginx/tmp/fastcgi;
    uwsgi_temp_path $work/nginx/tmp/uwsgi;
    scgi_temp_path $work/nginx/tmp/scgi;
    types { }
    default_type application/json;
    server {
        listen 127.0.0.1:$port;
        root $www;
        add_header Cache-Control "$cache_control";
    }
}
NGINX
    "$bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/logs/error.log" -g 'daemon off;' &
    nginx_pid=$!
    nginx_url="http://127.0.0.1:$port"
    first="$(cd "$www" && ls | head -n 1)"
    for _ in $(seq 1 100); do
        curl -s -o /dev/null "$nginx_url/$first" && return 0
        kill -0 "$nginx_pid" 2>/dev/null || { cat "$work/nginx/logs/error.log" >&2; echo "nginx exited" >&2; exit 1; }
        sleep 0.1
    done
    echo "nginx did not answer on $nginx_url" >&2
    exit 1
}
