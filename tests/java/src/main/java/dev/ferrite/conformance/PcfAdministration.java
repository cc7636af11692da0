package dev.ferrite.conformance;

import static dev.ferrite.conformance.Checks.equal;
import static dev.ferrite.conformance.Checks.require;

import com.ibm.mq.MQQueueManager;
import com.ibm.mq.constants.CMQC;
import com.ibm.mq.constants.CMQCFC;
import com.ibm.mq.headers.pcf.PCFException;
import com.ibm.mq.headers.pcf.PCFMessage;
import com.ibm.mq.headers.pcf.PCFMessageAgent;
import java.util.Arrays;
import java.util.Hashtable;
import java.util.List;

/**
 * IBM's PCF classes (com.ibm.mq.headers.pcf.PCFMessageAgent) administering a Ferrite queue
 * manager over a SVRCONN channel: the agent opens SYSTEM.ADMIN.COMMAND.QUEUE and a reply queue
 * from SYSTEM.DEFAULT.MODEL.QUEUE, sends PCF commands and reads the command server's responses.
 * Arguments: queue manager name, host, port, channel, a queue name for the checks to create.
 */
public final class PcfAdministration {
    private final String qmgrName;
    private final Hashtable<String, Object> properties = new Hashtable<>();
    private final String queueName;

    private PcfAdministration(String[] args) {
        qmgrName = args[0];
        properties.put(CMQC.HOST_NAME_PROPERTY, args[1]);
        properties.put(CMQC.PORT_PROPERTY, Integer.parseInt(args[2]));
        properties.put(CMQC.CHANNEL_PROPERTY, args[3]);
        properties.put(CMQC.TRANSPORT_PROPERTY, CMQC.TRANSPORT_MQSERIES_CLIENT);
        queueName = args[4];
    }

    public static void main(String[] args) throws Exception {
        System.exit(new PcfAdministration(args).run());
    }

    private static String trimmed(PCFMessage message, int parameter) throws Exception {
        return message.getStringParameterValue(parameter).trim();
    }

    private int run() throws Exception {
        Checks checks = new Checks();
        MQQueueManager qmgr = new MQQueueManager(qmgrName, properties);
        PCFMessageAgent agent = new PCFMessageAgent(qmgr);
        try {
            checks.check("the agent learns the platform and command level", () -> {
                equal(CMQC.MQPL_UNIX, agent.getPlatform(), "platform");
                require(agent.getCommandLevel() >= 900, "command level " + agent.getCommandLevel());
            });

            checks.check("INQUIRE_Q_MGR", () -> {
                PCFMessage request = new PCFMessage(CMQCFC.MQCMD_INQUIRE_Q_MGR);
                request.addParameter(CMQCFC.MQIACF_Q_MGR_ATTRS,
                        new int[] {CMQC.MQCA_Q_MGR_NAME, CMQC.MQCA_DEAD_LETTER_Q_NAME});
                PCFMessage[] responses = agent.send(request);
                equal(1, responses.length, "responses");
                equal(qmgrName, trimmed(responses[0], CMQC.MQCA_Q_MGR_NAME), "name");
                equal("SYSTEM.DEAD.LETTER.QUEUE",
                        trimmed(responses[0], CMQC.MQCA_DEAD_LETTER_Q_NAME), "DEADQ");
            });

            checks.check("CREATE_Q", () -> {
                PCFMessage request = new PCFMessage(CMQCFC.MQCMD_CREATE_Q);
                request.addParameter(CMQC.MQCA_Q_NAME, queueName);
                request.addParameter(CMQC.MQIA_Q_TYPE, CMQC.MQQT_LOCAL);
                request.addParameter(CMQC.MQCA_Q_DESC, "created by PCFMessageAgent");
                request.addParameter(CMQC.MQIA_MAX_Q_DEPTH, 4321);
                request.addParameter(CMQC.MQIA_DEF_PERSISTENCE, CMQC.MQPER_PERSISTENT);
                PCFMessage[] responses = agent.send(request);
                equal(1, responses.length, "responses");
                equal(CMQC.MQCC_OK, responses[0].getCompCode(), "completion code");
            });

            checks.check("INQUIRE_Q_NAMES", () -> {
                PCFMessage request = new PCFMessage(CMQCFC.MQCMD_INQUIRE_Q_NAMES);
                request.addParameter(CMQC.MQCA_Q_NAME, "*");
                request.addParameter(CMQC.MQIA_Q_TYPE, CMQC.MQQT_LOCAL);
                PCFMessage[] responses = agent.send(request);
                List<String> names = Arrays.stream(
                        responses[0].getStringListParameterValue(CMQCFC.MQCACF_Q_NAMES))
                        .map(String::trim).toList();
                require(names.contains(queueName), queueName + " in " + names);
                require(names.contains("SYSTEM.ADMIN.COMMAND.QUEUE"), "command queue in " + names);
                require(!names.contains("SYSTEM.DEFAULT.MODEL.QUEUE"), "only local queues");
            });

            checks.check("INQUIRE_Q with attributes", () -> {
                PCFMessage request = new PCFMessage(CMQCFC.MQCMD_INQUIRE_Q);
                request.addParameter(CMQC.MQCA_Q_NAME, queueName);
                request.addParameter(CMQCFC.MQIACF_Q_ATTRS, new int[] {
                        CMQC.MQCA_Q_DESC, CMQC.MQIA_MAX_Q_DEPTH, CMQC.MQIA_DEF_PERSISTENCE,
                        CMQC.MQIA_CURRENT_Q_DEPTH, CMQC.MQIA_SHAREABILITY});
                PCFMessage[] responses = agent.send(request);
                equal(1, responses.length, "responses");
                PCFMessage queue = responses[0];
                equal(queueName, trimmed(queue, CMQC.MQCA_Q_NAME), "name");
                equal(CMQC.MQQT_LOCAL, queue.getIntParameterValue(CMQC.MQIA_Q_TYPE), "type");
                equal("created by PCFMessageAgent", trimmed(queue, CMQC.MQCA_Q_DESC), "DESCR");
                equal(4321, queue.getIntParameterValue(CMQC.MQIA_MAX_Q_DEPTH), "MAXDEPTH");
                equal(CMQC.MQPER_PERSISTENT,
                        queue.getIntParameterValue(CMQC.MQIA_DEF_PERSISTENCE), "DEFPSIST");
                equal(0, queue.getIntParameterValue(CMQC.MQIA_CURRENT_Q_DEPTH), "CURDEPTH");
                equal(CMQC.MQQA_SHAREABLE,
                        queue.getIntParameterValue(CMQC.MQIA_SHAREABILITY), "SHARE");
            });

            checks.check("CHANGE_Q", () -> {
                PCFMessage request = new PCFMessage(CMQCFC.MQCMD_CHANGE_Q);
                request.addParameter(CMQC.MQCA_Q_NAME, queueName);
                request.addParameter(CMQC.MQIA_Q_TYPE, CMQC.MQQT_LOCAL);
                request.addParameter(CMQC.MQIA_MAX_Q_DEPTH, 99);
                request.addParameter(CMQC.MQIA_SHAREABILITY, CMQC.MQQA_NOT_SHAREABLE);
                agent.send(request);
                PCFMessage inquire = new PCFMessage(CMQCFC.MQCMD_INQUIRE_Q);
                inquire.addParameter(CMQC.MQCA_Q_NAME, queueName);
                PCFMessage queue = agent.send(inquire)[0];
                equal(99, queue.getIntParameterValue(CMQC.MQIA_MAX_Q_DEPTH), "MAXDEPTH");
                equal(CMQC.MQQA_NOT_SHAREABLE,
                        queue.getIntParameterValue(CMQC.MQIA_SHAREABILITY), "NOSHARE");
                equal("created by PCFMessageAgent", trimmed(queue, CMQC.MQCA_Q_DESC),
                        "DESCR unchanged");
            });

            checks.check("INQUIRE_Q_STATUS, TYPE QUEUE and HANDLE", () -> {
                PCFMessage request = new PCFMessage(CMQCFC.MQCMD_INQUIRE_Q_STATUS);
                request.addParameter(CMQC.MQCA_Q_NAME, "SYSTEM.ADMIN.COMMAND.QUEUE");
                PCFMessage status = agent.send(request)[0];
                equal(CMQCFC.MQIACF_Q_STATUS,
                        status.getIntParameterValue(CMQCFC.MQIACF_Q_STATUS_TYPE), "status type");
                require(status.getIntParameterValue(CMQC.MQIA_OPEN_INPUT_COUNT) >= 1,
                        "the command server has its queue open for input");

                // The agent's reply queue, a dynamic queue it holds open for input.
                String replyQueue = agent.getReplyQueueName().trim();
                PCFMessage handles = new PCFMessage(CMQCFC.MQCMD_INQUIRE_Q_STATUS);
                handles.addParameter(CMQC.MQCA_Q_NAME, replyQueue);
                handles.addParameter(CMQCFC.MQIACF_Q_STATUS_TYPE, CMQCFC.MQIACF_Q_HANDLE);
                PCFMessage[] responses = agent.send(handles);
                equal(1, responses.length, "handles on " + replyQueue);
                PCFMessage handle = responses[0];
                equal(replyQueue, trimmed(handle, CMQC.MQCA_Q_NAME), "queue");
                equal(CMQCFC.MQIACF_Q_HANDLE,
                        handle.getIntParameterValue(CMQCFC.MQIACF_Q_STATUS_TYPE), "type");
                require(handle.getIntParameterValue(CMQCFC.MQIACF_OPEN_INPUT_TYPE)
                        != CMQCFC.MQQSO_NO, "open for input");
                equal(properties.get(CMQC.CHANNEL_PROPERTY),
                        trimmed(handle, CMQCFC.MQCACH_CHANNEL_NAME), "CHANNEL");
                require(!trimmed(handle, CMQCFC.MQCACH_CONNECTION_NAME).isEmpty(),
                        "CONNAME of a client handle");
            });

            checks.check("an unknown queue is a PCFException with MQRC_UNKNOWN_OBJECT_NAME", () -> {
                PCFMessage request = new PCFMessage(CMQCFC.MQCMD_INQUIRE_Q);
                request.addParameter(CMQC.MQCA_Q_NAME, "FERRITE.NO.SUCH.QUEUE");
                try {
                    agent.send(request);
                    throw new AssertionError("no PCFException");
                } catch (PCFException expected) {
                    equal(CMQC.MQRC_UNKNOWN_OBJECT_NAME, expected.reasonCode, "reason");
                    equal(CMQC.MQCC_FAILED, expected.completionCode, "completion code");
                }
            });

            checks.check("CREATE_Q of an existing queue is MQRCCF_OBJECT_ALREADY_EXISTS", () -> {
                PCFMessage request = new PCFMessage(CMQCFC.MQCMD_CREATE_Q);
                request.addParameter(CMQC.MQCA_Q_NAME, queueName);
                request.addParameter(CMQC.MQIA_Q_TYPE, CMQC.MQQT_LOCAL);
                try {
                    agent.send(request);
                    throw new AssertionError("no PCFException");
                } catch (PCFException expected) {
                    equal(CMQCFC.MQRCCF_OBJECT_ALREADY_EXISTS, expected.reasonCode, "reason");
                }
            });

            checks.check("DELETE_Q", () -> {
                PCFMessage request = new PCFMessage(CMQCFC.MQCMD_DELETE_Q);
                request.addParameter(CMQC.MQCA_Q_NAME, queueName);
                request.addParameter(CMQCFC.MQIACF_PURGE, CMQCFC.MQPO_YES);
                agent.send(request);
                PCFMessage inquire = new PCFMessage(CMQCFC.MQCMD_INQUIRE_Q_NAMES);
                inquire.addParameter(CMQC.MQCA_Q_NAME, queueName);
                PCFMessage[] responses = agent.send(inquire);
                equal(0, responses[0].getStringListParameterValue(CMQCFC.MQCACF_Q_NAMES).length,
                        "queues left named " + queueName);
            });
        } finally {
            agent.disconnect();
            qmgr.disconnect();
        }
        return checks.finish();
    }
}
