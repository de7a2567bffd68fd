package io.sagaflow.gateway.routing;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.function.ServerRequest;

/**
 * Marks a write whose body the gateway has begun to read: from then on, some of it may have reached a service. A write
 * whose call found no replica to connect to and whose body nobody read never left the gateway, so {@code
 * RetryUnsentWrites} may send it to another replica whatever its method (ADR 0012). Reads ({@code GET}, {@code HEAD})
 * are not marked: they are sent again by their own rule.
 */
final class BodyReadFilter extends OncePerRequestFilter {

    private static final String READ = BodyReadFilter.class.getName() + ".read";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String method = request.getMethod();
        if (method.equals("GET") || method.equals("HEAD")) {
            chain.doFilter(request, response);
            return;
        }
        AtomicBoolean read = new AtomicBoolean();
        request.setAttribute(READ, read);
        chain.doFilter(new MarkingRequest(request, read), response);
    }

    /**
     * Whether anything of the request's body may have been read, and so sent on. True when the request did not pass
     * through this filter: what is not known is taken as sent.
     */
    static boolean mayHaveBeenSent(ServerRequest request) {
        return !(request.servletRequest().getAttribute(READ) instanceof AtomicBoolean read) || read.get();
    }

    private static final class MarkingRequest extends HttpServletRequestWrapper {

        private final AtomicBoolean read;
        private ServletInputStream body;

        MarkingRequest(HttpServletRequest request, AtomicBoolean read) {
            super(request);
            this.read = read;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (body == null) {
                body = new MarkingInputStream(super.getInputStream(), read);
            }
            return body;
        }
    }

    /**
     * The body, marked read by the first call that reads from it; asking whether it is finished or ready reads
     * nothing. Every read of {@link java.io.InputStream} (bulk, skip, transfer) passes through the two below.
     */
    private static final class MarkingInputStream extends ServletInputStream {

        private final ServletInputStream body;
        private final AtomicBoolean read;

        MarkingInputStream(ServletInputStream body, AtomicBoolean read) {
            this.body = body;
            this.read = read;
        }

        @Override
        public int read() throws IOException {
            read.set(true);
            return body.read();
        }

        @Override
        public int read(byte[] bytes, int offset, int length) throws IOException {
            read.set(true);
            return body.read(bytes, offset, length);
        }

        @Override
        public boolean isFinished() {
            return body.isFinished();
        }

        @Override
        public boolean isReady() {
            return body.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            body.setReadListener(listener);
        }
    }
}
