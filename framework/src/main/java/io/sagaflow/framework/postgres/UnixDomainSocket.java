package io.sagaflow.framework.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketImpl;
import java.net.SocketOption;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A {@link java.net.Socket} over a Unix-domain {@link SocketChannel}, for pgjdbc, which takes sockets (see
 * {@link UnixDomainSocketFactory}). The JDK gives such channels no {@code Socket} of their own.
 *
 * <p>Reads and writes block, which parks a virtual thread rather than its carrier. A read under a timeout
 * ({@link #setSoTimeout}, which pgjdbc sets while it checks a connection is alive) waits on a selector instead, and
 * throws {@link SocketTimeoutException} when nothing came in time. TCP's options mean nothing here: setting them does
 * nothing, and reading them answers their defaults. The buffer sizes are the channel's own.
 */
final class UnixDomainSocket extends java.net.Socket {

    private final Path socketFile;
    private final Object reading = new Object();
    private volatile SocketChannel channel;
    private volatile int timeoutMillis;
    private volatile boolean closed;
    private volatile Selector selector;
    private Integer receiveBuffer;
    private Integer sendBuffer;

    UnixDomainSocket(Path socketFile) throws SocketException {
        super((SocketImpl) null);
        this.socketFile = socketFile;
    }

    /** Connects to the socket file; {@code endpoint} (a TCP address from pgjdbc) and the time-out are not used. */
    @Override
    public void connect(SocketAddress endpoint, int timeout) throws IOException {
        if (closed) {
            throw new SocketException("Socket is closed");
        }
        if (channel != null) {
            throw new SocketException("already connected to " + socketFile);
        }
        SocketChannel opened = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            opened.connect(UnixDomainSocketAddress.of(socketFile));
            if (receiveBuffer != null) {
                opened.setOption(StandardSocketOptions.SO_RCVBUF, receiveBuffer);
            }
            if (sendBuffer != null) {
                opened.setOption(StandardSocketOptions.SO_SNDBUF, sendBuffer);
            }
        } catch (IOException e) {
            opened.close();
            throw new SocketException("could not connect to " + socketFile + ": " + e.getMessage(), e);
        }
        channel = opened;
    }

    @Override
    public void connect(SocketAddress endpoint) throws IOException {
        connect(endpoint, 0);
    }

    @Override
    public void bind(SocketAddress local) throws IOException {
        throw new SocketException("a Unix-domain socket to PostgreSQL binds no local address");
    }

    @Override
    public InputStream getInputStream() throws IOException {
        SocketChannel connected = connected();
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int n = read(one, 0, 1);
                return n < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] bytes, int offset, int length) throws IOException {
                Objects.checkFromIndexSize(offset, length, bytes.length);
                if (length == 0) {
                    return 0;
                }
                ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
                int timeout = timeoutMillis;
                return timeout == 0 ? connected.read(buffer) : readWithin(connected, buffer, timeout);
            }

            @Override
            public void close() throws IOException {
                UnixDomainSocket.this.close();
            }
        };
    }

    private int readWithin(SocketChannel connected, ByteBuffer buffer, int timeout) throws IOException {
        synchronized (reading) {
            connected.configureBlocking(false);
            try {
                int n = connected.read(buffer);
                if (n != 0) {
                    return n;
                }
                Selector waiting = selector();
                SelectionKey key = connected.register(waiting, SelectionKey.OP_READ);
                try {
                    waiting.select(timeout);
                } finally {
                    key.cancel();
                    waiting.selectNow(); // deregisters the channel, so that it may block again
                }
                n = connected.read(buffer);
                if (n == 0) {
                    throw new SocketTimeoutException("nothing read from " + socketFile + " in " + timeout + " ms");
                }
                return n;
            } catch (ClosedSelectorException e) {
                throw new SocketException("Socket is closed");
            } finally {
                if (connected.isOpen()) {
                    connected.configureBlocking(true);
                }
            }
        }
    }

    /** The selector a read under a time-out waits on, opened by the first such read. */
    private Selector selector() throws IOException {
        Selector waiting = selector;
        if (waiting == null) {
            waiting = Selector.open();
            selector = waiting;
            if (closed) { // closed meanwhile: close() may have missed it
                waiting.close();
            }
        }
        return waiting;
    }

    @Override
    public OutputStream getOutputStream() throws IOException {
        SocketChannel connected = connected();
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                Objects.checkFromIndexSize(offset, length, bytes.length);
                ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
                while (buffer.hasRemaining()) {
                    connected.write(buffer);
                }
            }

            @Override
            public void close() throws IOException {
                UnixDomainSocket.this.close();
            }
        };
    }

    private SocketChannel connected() throws SocketException {
        SocketChannel connected = channel;
        if (closed) {
            throw new SocketException("Socket is closed");
        }
        if (connected == null) {
            throw new SocketException("Socket is not connected");
        }
        return connected;
    }

    @Override
    public void setSoTimeout(int timeout) throws SocketException {
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout can't be negative");
        }
        timeoutMillis = timeout;
    }

    @Override
    public int getSoTimeout() {
        return timeoutMillis;
    }

    @Override
    public void setTcpNoDelay(boolean on) {}

    @Override
    public boolean getTcpNoDelay() {
        return false;
    }

    @Override
    public void setKeepAlive(boolean on) {}

    @Override
    public boolean getKeepAlive() {
        return false;
    }

    @Override
    public void setReceiveBufferSize(int size) throws SocketException {
        receiveBuffer = size;
        option(StandardSocketOptions.SO_RCVBUF, size);
    }

    @Override
    public int getReceiveBufferSize() throws SocketException {
        return option(StandardSocketOptions.SO_RCVBUF, receiveBuffer);
    }

    @Override
    public void setSendBufferSize(int size) throws SocketException {
        sendBuffer = size;
        option(StandardSocketOptions.SO_SNDBUF, size);
    }

    @Override
    public int getSendBufferSize() throws SocketException {
        return option(StandardSocketOptions.SO_SNDBUF, sendBuffer);
    }

    /** Sets the option on a connected channel (when {@code value} is not null) and answers the channel's value. */
    private int option(SocketOption<Integer> option, Integer value) throws SocketException {
        SocketChannel connected = channel;
        if (connected == null) {
            return value == null ? 0 : value;
        }
        try {
            if (value != null) {
                connected.setOption(option, value);
            }
            return connected.getOption(option);
        } catch (IOException e) {
            throw new SocketException(option.name() + ": " + e.getMessage());
        }
    }

    @Override
    public void shutdownInput() throws IOException {
        connected().shutdownInput();
    }

    @Override
    public void shutdownOutput() throws IOException {
        connected().shutdownOutput();
    }

    @Override
    public boolean isConnected() {
        return channel != null;
    }

    @Override
    public boolean isBound() {
        return channel != null;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    /** Closes the channel, and wakes a read waiting under a time-out, which then throws. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        SocketChannel connected = channel;
        Selector waiting = selector;
        try {
            if (connected != null) {
                connected.close();
            }
        } finally {
            if (waiting != null) {
                waiting.close();
            }
        }
    }

    @Override
    public String toString() {
        return "UnixDomainSocket[" + socketFile + (closed ? ", closed" : channel != null ? ", connected" : "") + "]";
    }
}
