package io.sagaflow.framework.web;

import org.apache.catalina.connector.Connector;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.util.unit.DataSize;

/**
 * The heap a service's Tomcat keeps for each open connection and each request it works on (ADR 0041). Tomcat gives
 * every connection a read and a write buffer of {@code socket.appReadBufSize} and {@code socket.appWriteBufSize}
 * (8 KB each by default) for as long as the connection is open, and sizes each request's input buffer as the header
 * limit plus the read buffer. A client that keeps many connections open — a load generator with one connection per
 * virtual user, or many replicas of a caller — makes these buffers a large part of a small heap: at 450 iter/s on
 * the local stack, k6's 729 connections held about 12 MB of the order service's 192 MB. Our requests and responses
 * are a few hundred bytes, so smaller buffers cost nothing but more, smaller reads and writes for the rare large
 * body; the header limit ({@code server.max-http-request-header-size}) is untouched.
 *
 * @param size bytes of each connection's read buffer and of its write buffer
 */
public record ConnectionBuffers(DataSize size) implements TomcatConnectorCustomizer {

    /** Below this a buffer would not hold a typical request line and its headers. */
    public static final DataSize MINIMUM = DataSize.ofBytes(512);

    public ConnectionBuffers {
        if (size == null || size.compareTo(MINIMUM) < 0 || size.toBytes() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "sagaflow.web.connection-buffer must be at least " + MINIMUM.toBytes() + " bytes, was " + size);
        }
    }

    @Override
    public void customize(Connector connector) {
        String bytes = Long.toString(size.toBytes());
        if (!connector.setProperty("socket.appReadBufSize", bytes)
                || !connector.setProperty("socket.appWriteBufSize", bytes)) {
            throw new IllegalStateException("the connector " + connector + " has no socket buffers to size");
        }
    }
}
