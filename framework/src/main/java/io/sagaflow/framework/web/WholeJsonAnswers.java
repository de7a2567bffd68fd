package io.sagaflow.framework.web;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Map;
import org.springframework.core.ResolvableType;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sends a JSON answer that fits Tomcat's response buffer whole, with its {@code Content-Length}, in one write (ADR
 * 0071).
 *
 * <p>Jackson's converter flushes the stream it wrote the answer to, and Spring MVC flushes the response after it. A
 * flush commits the response before Tomcat knows its length, so every answer went out chunked: the headers and the
 * body in one write, then the closing {@code 0\r\n\r\n} chunk in another when the request ended. That is a second
 * system call and a second TCP segment per answer, and the client, which cannot tell the answer is complete before the
 * closing chunk, is woken twice to read it. Here the answer is held until Jackson is done, so the length is known when
 * the headers are written; an answer larger than {@link #HELD_AT_MOST} is streamed as before.
 *
 * <p>The converter replaces Spring Boot's own, with the same {@link JsonMapper}, once the list of converters is built;
 * a converter of any other class, a subclass included, is kept. The actuator registers its own mapper for its answers
 * on the JSON converter after that (Spring runs such configurers after the list's), so it registers it on this one,
 * and its answers go out whole too.
 */
public final class WholeJsonAnswers implements WebMvcConfigurer {

    /** Tomcat's response buffer: a larger answer is committed, and chunked, when the buffer fills anyway. */
    static final int HELD_AT_MOST = 8 * 1024;

    @Override
    public void configureMessageConverters(HttpMessageConverters.ServerBuilder builder) {
        builder.configureMessageConvertersList(converters -> converters.replaceAll(WholeJsonAnswers::whole));
    }

    private static HttpMessageConverter<?> whole(HttpMessageConverter<?> converter) {
        return converter.getClass() == JacksonJsonHttpMessageConverter.class
                ? new Converter(((JacksonJsonHttpMessageConverter) converter).getMapper())
                : converter;
    }

    /** Spring's JSON converter, writing through a {@link HeldBody}. */
    static final class Converter extends JacksonJsonHttpMessageConverter {

        Converter(JsonMapper mapper) {
            super(mapper);
        }

        @Override
        protected void writeInternal(
                Object object, ResolvableType type, HttpOutputMessage message, Map<String, Object> hints)
                throws IOException {
            HeldBody body = new HeldBody(message);
            super.writeInternal(object, type, body, hints);
            body.finish();
        }
    }

    /**
     * An answer's body, held until it is complete or grows past {@link #HELD_AT_MOST}; then the response's own stream.
     * The headers go out with the response's stream, so they are final until then.
     */
    static final class HeldBody extends OutputStream implements HttpOutputMessage {

        private final HttpOutputMessage message;
        private byte[] held = new byte[512];
        private int count;
        private OutputStream streaming; // null while the answer is held

        HeldBody(HttpOutputMessage message) {
            this.message = message;
        }

        @Override
        public OutputStream getBody() {
            return this;
        }

        @Override
        public HttpHeaders getHeaders() {
            return message.getHeaders();
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            if (streaming == null && count + length > HELD_AT_MOST) {
                streaming = message.getBody();
                streaming.write(held, 0, count);
            }
            if (streaming != null) {
                streaming.write(bytes, offset, length);
                return;
            }
            if (count + length > held.length) {
                held = Arrays.copyOf(held, Math.min(HELD_AT_MOST, Math.max(count + length, 2 * held.length)));
            }
            System.arraycopy(bytes, offset, held, count, length);
            count += length;
        }

        /** Jackson flushes when it is done; only a streaming answer is flushed on. */
        @Override
        public void flush() throws IOException {
            if (streaming != null) {
                streaming.flush();
            }
        }

        /** Sends what is held, with its length. */
        void finish() throws IOException {
            if (streaming == null) {
                message.getHeaders().setContentLength(count);
                message.getBody().write(held, 0, count);
            }
        }
    }
}
