package io.sagaflow.framework.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.core.MethodParameter;
import org.springframework.http.ResponseEntity;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.support.StaticWebApplicationContext;
import org.springframework.web.method.support.AsyncHandlerMethodReturnValueHandler;
import org.springframework.web.method.support.HandlerMethodReturnValueHandler;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

class ChosenReturnValueHandlersTest {

    /** Return types to choose handlers for. */
    static class Answers {
        ResponseEntity<String> entity() {
            return null;
        }

        Object anything() {
            return null;
        }
    }

    /** Takes the return types it is given, and counts what it is asked and given. */
    static class Counting implements HandlerMethodReturnValueHandler {
        final Class<?> takes;
        int asked;
        final List<Object> handled = new ArrayList<>();

        Counting(Class<?> takes) {
            this.takes = takes;
        }

        @Override
        public boolean supportsReturnType(MethodParameter returnType) {
            asked++;
            return takes.isAssignableFrom(returnType.getParameterType());
        }

        @Override
        public void handleReturnValue(
                Object value, MethodParameter type, ModelAndViewContainer mav, NativeWebRequest request) {
            handled.add(value);
        }
    }

    /** Takes any type, and says a future is asynchronous, as Spring's reactive handler does its types. */
    static class Futures extends Counting implements AsyncHandlerMethodReturnValueHandler {
        Futures() {
            super(CompletableFuture.class);
        }

        @Override
        public boolean isAsyncReturnValue(Object value, MethodParameter type) {
            return value instanceof CompletableFuture;
        }
    }

    private static MethodParameter returnOf(String method, Object value) throws NoSuchMethodException {
        Method declared = Answers.class.getDeclaredMethod(method);
        // As Spring MVC passes it: the parameter type is the value's class when there is a value.
        return new MethodParameter(declared, -1) {
            @Override
            public Class<?> getParameterType() {
                return value != null ? value.getClass() : super.getParameterType();
            }
        };
    }

    private static void answer(ChosenReturnValueHandlers chosen, String method, Object value) throws Exception {
        chosen.handleReturnValue(value, returnOf(method, value), new ModelAndViewContainer(), null);
    }

    @Test
    void theHandlersAreAskedOncePerMethodAndClassOfValue() throws Exception {
        Counting strings = new Counting(String.class);
        Counting entities = new Counting(ResponseEntity.class);
        ChosenReturnValueHandlers chosen = new ChosenReturnValueHandlers(List.of(strings, entities));

        for (int i = 0; i < 5; i++) {
            answer(chosen, "entity", ResponseEntity.ok("answer " + i));
        }

        assertThat(entities.handled).hasSize(5);
        assertThat(strings.asked).isEqualTo(1);
        assertThat(entities.asked).isEqualTo(1);
        assertThat(chosen.supportsReturnType(returnOf("entity", null))).isTrue();
        assertThat(strings.asked).as("supportsReturnType asks no handler").isEqualTo(1);
    }

    @Test
    void aMethodReturningValuesOfSeveralClassesGetsTheHandlerOfEach() throws Exception {
        Counting strings = new Counting(String.class);
        Counting entities = new Counting(ResponseEntity.class);
        ChosenReturnValueHandlers chosen = new ChosenReturnValueHandlers(List.of(strings, entities));

        answer(chosen, "anything", "text");
        answer(chosen, "anything", ResponseEntity.ok("entity"));
        answer(chosen, "anything", "more text");

        assertThat(strings.handled).containsExactly("text", "more text");
        assertThat(entities.handled).hasSize(1);
    }

    @Test
    void aResultThatArrivedAsynchronouslyIsChosenForApartFromAValueReturned() throws Exception {
        Counting strings = new Counting(String.class);
        ChosenReturnValueHandlers chosen = new ChosenReturnValueHandlers(List.of(strings));
        Method declared = Answers.class.getDeclaredMethod("anything");
        // Spring describes a later result by a parameter of another class, with the generic type the future held.
        MethodParameter later = new MethodParameter(declared, -1) {
            @Override
            public Class<?> getParameterType() {
                return String.class;
            }
        };

        answer(chosen, "anything", "now");
        chosen.handleReturnValue("later", later, new ModelAndViewContainer(), null);
        answer(chosen, "anything", "now again");
        chosen.handleReturnValue("later again", later, new ModelAndViewContainer(), null);

        assertThat(strings.asked).isEqualTo(2);
        assertThat(strings.handled).containsExactly("now", "later", "now again", "later again");
    }

    @Test
    void anAsynchronousValueGoesOnlyToAnAsynchronousHandler_asInSpring() throws Exception {
        Counting anything = new Counting(Object.class);
        Futures futures = new Futures();
        ChosenReturnValueHandlers chosen = new ChosenReturnValueHandlers(List.of(anything, futures));
        CompletableFuture<String> future = CompletableFuture.completedFuture("later");

        answer(chosen, "anything", future);
        answer(chosen, "anything", "now");

        assertThat(futures.handled).containsExactly(future);
        assertThat(anything.handled).containsExactly("now");
    }

    @Test
    void aTypeNoHandlerTakesIsRefusedAsSpringRefusesIt() throws NoSuchMethodException {
        ChosenReturnValueHandlers chosen = new ChosenReturnValueHandlers(List.of(new Counting(String.class)));

        assertThatThrownBy(() -> answer(chosen, "anything", 42))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Unknown return value type: java.lang.Integer");
    }

    @Test
    void theInstallerWrapsSpringsOwnHandlersInTheirOrder_once() {
        StaticWebApplicationContext context = new StaticWebApplicationContext();
        context.refresh();
        RequestMappingHandlerAdapter adapter = new RequestMappingHandlerAdapter();
        adapter.setApplicationContext(context);
        adapter.afterPropertiesSet();
        List<HandlerMethodReturnValueHandler> springs = adapter.getReturnValueHandlers();

        ChosenReturnValueHandlers.installer().postProcessAfterInitialization(adapter, "adapter");
        ChosenReturnValueHandlers.installer().postProcessAfterInitialization(adapter, "adapter");

        assertThat(adapter.getReturnValueHandlers())
                .singleElement()
                .isInstanceOfSatisfying(
                        ChosenReturnValueHandlers.class,
                        chosen -> assertThat(chosen.handlers()).containsExactlyElementsOf(springs));
    }
}
