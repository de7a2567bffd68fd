package io.sagaflow.tomcat;

import java.io.IOException;
import java.io.Writer;
import org.apache.catalina.Context;
import org.apache.catalina.Lifecycle;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.http.HttpStatus;

/**
 * The answer Tomcat gives itself to a request it refuses before Spring sees it (a URI it will not decode, such as one
 * holding {@code %00}; a header too large), as an RFC 9457 problem like every other error, instead of its HTML page.
 * It replaces the host's {@link ErrorReportValve}, in the services (through the framework) and in the gateway. Found
 * by fuzzing: the API's answers were problems, Tomcat's were not. It says no more than the status: what Tomcat refused
 * stays in its own log.
 */
public final class ProblemErrorReports extends ErrorReportValve {

    /** Puts this valve in place of every other error report valve of {@code context}'s host once the host starts. */
    public static void install(Context context) {
        if (!(context.getParent() instanceof StandardHost host)) {
            return;
        }
        host.setErrorReportValveClass(ProblemErrorReports.class.getName());
        host.addLifecycleListener(event -> {
            if (Lifecycle.AFTER_START_EVENT.equals(event.getType())) {
                for (Valve valve : host.getPipeline().getValves()) {
                    if (valve instanceof ErrorReportValve && !(valve instanceof ProblemErrorReports)) {
                        host.getPipeline().removeValve(valve);
                    }
                }
            }
        });
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        HttpStatus known = HttpStatus.resolve(status);
        String code = known == null ? "HTTP_" + status : known.name();
        String title = known == null ? "HTTP " + status : known.getReasonPhrase();
        try {
            response.setContentType("application/problem+json");
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write("{\"type\":\"urn:sagaflow:problem:" + code + "\",\"title\":\"" + title + "\",\"status\":"
                        + status + ",\"code\":\"" + code + "\"}");
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the connection is gone or the response was taken over: nothing left to answer
        }
    }
}
