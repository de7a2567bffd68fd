package io.sagaflow.framework.web;

import java.lang.reflect.Executable;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.MethodParameter;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.AsyncHandlerMethodReturnValueHandler;
import org.springframework.web.method.support.HandlerMethodReturnValueHandler;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.handler.HandlerExceptionResolverComposite;
import org.springframework.web.servlet.mvc.method.annotation.ExceptionHandlerExceptionResolver;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

/**
 * Chooses a handler method's return value handler once per method and class of value, not on every request (ADR
 * 0107).
 *
 * <p>Spring MVC asks its return value handlers in turn, on every request, whether they take the method's return type.
 * For a method that answers a {@code ResponseEntity}, {@code ResponseBodyEmitterReturnValueHandler} works out the
 * entity's generic type to see whether it is a stream of events: some 3 % of the CPU samples of the account service
 * under load, for the same answer each time (perf/results/2026-12-02-profile-400).
 *
 * <p>Every handler of Spring MVC decides by the method's declared return type and the class of the value it returned
 * (a {@code null} is taken as the declared type), or by those of an asynchronous result when it arrives, so that is the
 * key the choice is kept under. On a miss the handlers are asked exactly as Spring asks them: an asynchronous value
 * (one an {@link AsyncHandlerMethodReturnValueHandler} says is) only by those, then the first that takes the type. No
 * handler takes it: the same {@link IllegalArgumentException} as Spring's. The request mapping adapter and the
 * resolver of exception handler methods (the problem answers) get one each, wrapping their own list once it is built;
 * the keys are bounded by the handler methods and the classes they return.
 */
public final class ChosenReturnValueHandlers implements HandlerMethodReturnValueHandler {

    private final List<HandlerMethodReturnValueHandler> handlers;
    private final ConcurrentMap<Key, HandlerMethodReturnValueHandler> chosen = new ConcurrentHashMap<>();

    /**
     * What the choice depends on. The kind of parameter tells a value returned from an asynchronous result that
     * arrived later (Spring describes the two by different subclasses of {@link MethodParameter}, the second with the
     * generic type of what the future held).
     */
    private record Key(Executable method, Class<?> containingClass, Class<?> parameterKind, Class<?> valueClass) {}

    public ChosenReturnValueHandlers(List<HandlerMethodReturnValueHandler> handlers) {
        this.handlers = List.copyOf(handlers);
    }

    /**
     * Wraps the handlers of Spring MVC's request mapping adapter and of its exception handler resolvers (beans of their
     * own or, as Spring MVC makes them, inside the composite resolver), once initialised.
     */
    public static BeanPostProcessor installer() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                switch (bean) {
                    case RequestMappingHandlerAdapter adapter
                    when adapter.getReturnValueHandlers() != null ->
                        adapter.setReturnValueHandlers(List.of(wrapped(adapter.getReturnValueHandlers())));
                    case ExceptionHandlerExceptionResolver resolver -> install(resolver);
                    case HandlerExceptionResolverComposite composite ->
                        composite.getExceptionResolvers().forEach(ChosenReturnValueHandlers::install);
                    default -> {
                        // not Spring MVC's
                    }
                }
                return bean;
            }
        };
    }

    private static void install(HandlerExceptionResolver resolver) {
        if (resolver instanceof ExceptionHandlerExceptionResolver handlers
                && handlers.getReturnValueHandlers() != null) {
            handlers.setReturnValueHandlers(
                    List.of(wrapped(handlers.getReturnValueHandlers().getHandlers())));
        }
    }

    private static HandlerMethodReturnValueHandler wrapped(List<HandlerMethodReturnValueHandler> handlers) {
        return handlers.size() == 1 && handlers.getFirst() instanceof ChosenReturnValueHandlers already
                ? already
                : new ChosenReturnValueHandlers(handlers);
    }

    /** The handlers wrapped, in Spring's order. */
    public List<HandlerMethodReturnValueHandler> handlers() {
        return handlers;
    }

    /**
     * Always: whether a handler takes the type is known only with the value, and asking here would be the work this
     * class saves. {@link #handleReturnValue} says so when none does.
     */
    @Override
    public boolean supportsReturnType(MethodParameter returnType) {
        return true;
    }

    @Override
    public void handleReturnValue(
            Object returnValue,
            MethodParameter returnType,
            ModelAndViewContainer mavContainer,
            NativeWebRequest webRequest)
            throws Exception {
        Key key = new Key(
                returnType.getExecutable(),
                returnType.getContainingClass(),
                returnType.getClass(),
                returnValue == null ? null : returnValue.getClass());
        HandlerMethodReturnValueHandler handler = chosen.get(key);
        if (handler == null) {
            handler = choose(returnValue, returnType);
            chosen.putIfAbsent(key, handler);
        }
        handler.handleReturnValue(returnValue, returnType, mavContainer, webRequest);
    }

    /** The handler Spring's own composite would choose. */
    private HandlerMethodReturnValueHandler choose(Object returnValue, MethodParameter returnType) {
        boolean async = handlers.stream()
                .anyMatch(handler -> handler instanceof AsyncHandlerMethodReturnValueHandler asyncHandler
                        && asyncHandler.isAsyncReturnValue(returnValue, returnType));
        for (HandlerMethodReturnValueHandler handler : handlers) {
            if (async && !(handler instanceof AsyncHandlerMethodReturnValueHandler)) {
                continue;
            }
            if (handler.supportsReturnType(returnType)) {
                return handler;
            }
        }
        throw new IllegalArgumentException(
                "Unknown return value type: " + returnType.getParameterType().getName());
    }
}
