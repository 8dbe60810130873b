package dev.nqueens.web;

import dev.nqueens.job.NightlyRun;
import dev.nqueens.store.H2File;
import org.aopalliance.intercept.MethodInterceptor;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * {@code serve} on an embedded H2 file: the database is read-only except while a run of the
 * nightly schedule works (see {@link SwitchingH2DataSource}). Each call of
 * {@link NightlyRun#run} is wrapped so, whatever schedules it.
 */
@Configuration(proxyBeanMethods = false)
@Profile(Serve.PROFILE)
@Conditional(EmbeddedH2Configuration.OnEmbeddedH2.class)
class EmbeddedH2Configuration {

    @Bean
    SwitchingH2DataSource dataSource(Environment environment) {
        return new SwitchingH2DataSource(H2File.of(environment.getProperty("spring.datasource.url")).orElseThrow(),
                environment.getProperty("spring.datasource.username", "sa"),
                environment.getProperty("spring.datasource.password", ""));
    }

    @Bean
    static BeanPostProcessor writableDuringRuns(ObjectProvider<SwitchingH2DataSource> dataSource) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                if (!(bean instanceof NightlyRun)) {
                    return bean;
                }
                ProxyFactory proxy = new ProxyFactory(bean);
                proxy.setProxyTargetClass(true);
                proxy.addAdvice((MethodInterceptor) call -> "run".equals(call.getMethod().getName())
                        ? dataSource.getObject().writableDuring(call::proceed) : call.proceed());
                return proxy.getProxy();
            }
        };
    }

    /** The configured database is an embedded H2 file. */
    static final class OnEmbeddedH2 implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return H2File.of(context.getEnvironment().getProperty("spring.datasource.url")).isPresent();
        }
    }
}
