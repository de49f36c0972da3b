# Source: pytorch/examples reinforcement_learning/reinforce.py (BSD-3-Clause). Changed: gym -> a tiny
# deterministic env, sampling from a seeded NumPy uniform, 128 -> 16 hidden, dropout p=0, det weights.
import argparse
import numpy as np
from itertools import count
from collections import deque
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical


parser = argparse.ArgumentParser(description='PyTorch REINFORCE example')
parser.add_argument('--gamma', type=float, default=0.99, metavar='G',
                    help='discount factor (default: 0.99)')
parser.add_argument('--seed', type=int, default=543, metavar='N',
                    help='random seed (default: 543)')
parser.add_argument('--render', action='store_true',
                    help='render the environment')
parser.add_argument('--log-interval', type=int, default=1, metavar='N',
                    help='interval between training status logs (default: 10)')
args = parser.parse_args([])



class TinyEnv:
    """A deterministic stand-in for CartPole: a point pushed left or right, rewarded while it stays near 0."""
    class spec:
        reward_threshold = 11.0

    def reset(self, seed=None):
        self.x = np.array([0.1, -0.05, 0.02, 0.0], dtype=np.float64)
        self.t = 0
        return self.x.copy(), {}

    def step(self, action):
        self.t += 1
        push = 0.1 if action == 1 else -0.1
        self.x = np.array([self.x[0] + self.x[1], self.x[1] + push, np.sin(self.x[0] * 3), self.t / 10.0])
        terminated = abs(self.x[0]) > 0.6
        return self.x.copy(), 1.0, terminated, self.t >= 12, {}


sampler = np.random.RandomState(7)


def sample(m):
    """m.sample() from a seeded NumPy uniform (torch's generator differs by design): inverse CDF."""
    u = float(sampler.uniform())
    return (m.probs.detach().cumsum(-1) < u).sum(-1).clamp(max=m.probs.shape[-1] - 1)

render_mode = "human" if args.render else None
env = TinyEnv()
env.reset(seed=args.seed)
torch.manual_seed(args.seed)


class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.affine1 = nn.Linear(4, 16)
        self.dropout = nn.Dropout(p=0.0)
        self.affine2 = nn.Linear(16, 2)

        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = self.affine1(x)
        x = self.dropout(x)
        x = F.relu(x)
        action_scores = self.affine2(x)
        return F.softmax(action_scores, dim=1)


policy = det(Policy(), seed=4, scale=0.5)
optimizer = optim.Adam(policy.parameters(), lr=1e-2)
eps = np.finfo(np.float32).eps.item()


def select_action(state):
    state = torch.from_numpy(state).float().unsqueeze(0)
    probs = policy(state)
    m = Categorical(probs)
    action = sample(m)
    policy.saved_log_probs.append(m.log_prob(action))
    return action.item()


def finish_episode():
    R = 0
    policy_loss = []
    returns = deque()
    for r in policy.rewards[::-1]:
        R = r + args.gamma * R
        returns.appendleft(R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for log_prob, R in zip(policy.saved_log_probs, returns):
        policy_loss.append(-log_prob * R)
    optimizer.zero_grad()
    policy_loss = torch.cat(policy_loss).sum()
    policy_loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]


def main():
    running_reward = 10
    for i_episode in count(1):
        state, _ = env.reset()
        ep_reward = 0
        for t in range(1, 10000):  # Don't infinite loop while learning
            action = select_action(state)
            state, reward, terminated, truncated, _ = env.step(action)
            if args.render:
                env.render()
            policy.rewards.append(reward)
            ep_reward += reward
            if terminated or truncated:
                break

        running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
        finish_episode()
        if i_episode % args.log_interval == 0:
            print(f'Episode {i_episode}\tLast reward: {ep_reward:.2f}\tAverage reward: {running_reward:.2f}')
        if running_reward > env.spec.reward_threshold:
            print(f"Solved! Running reward is now {running_reward} and the last episode runs to {t} time steps!")
            break
        if i_episode == 15:
            report(weight=policy.affine2.weight)
            break


if __name__ == '__main__':
    main()
