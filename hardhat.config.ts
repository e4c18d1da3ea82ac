import { createRequire } from 'node:module';
import hardhatToolboxMochaEthersPlugin from '@nomicfoundation/hardhat-toolbox-mocha-ethers';
import { configVariable, defineConfig } from 'hardhat/config';

const require = createRequire(import.meta.url);

/** Base mainnet block the fork mode pins, so fork runs are reproducible. */
const BASE_FORK_BLOCK = 38_000_000;

const baseRpcUrl = process.env.BASE_RPC_URL;

// Compilers come from the npm `solc` package: Hardhat never downloads one.
const solc0828 = {
  version: '0.8.28',
  path: require.resolve('solc/soljson.js'),
  settings: {
    evmVersion: 'cancun',
    optimizer: { enabled: true, runs: 10_000 },
    viaIR: false,
  },
};

// SongVault embeds SongPoolHook's creation code and deploys it with CREATE2 at a salt it mines on
// chain; off-chain tools predict that address from SongPoolHook's own artifact. Without the
// metadata hash (which differs between compilation jobs, e.g. by their remappings) every contract
// that embeds the hook compiles it to the artifact's bytecode, so the prediction holds.
const solc0828NoMetadataHash = {
  ...solc0828,
  settings: { ...solc0828.settings, metadata: { bytecodeHash: 'none' as const } },
};

export default defineConfig({
  plugins: [hardhatToolboxMochaEthersPlugin],
  solidity: {
    compilers: [solc0828],
    overrides: {
      'contracts/SongVault.sol': solc0828NoMetadataHash,
      'contracts/SongPoolHook.sol': solc0828NoMetadataHash,
      'contracts/test/HookDeployerProbe.sol': solc0828NoMetadataHash,
    },
  },
  typechain: {
    outDir: 'typechain-types',
  },
  paths: {
    tests: {
      mocha: 'test/chain',
    },
  },
  test: {
    mocha: {
      timeout: 120_000,
    },
  },
  networks: {
    // Base as the tests see it: a simulated OP-stack chain with Base's chainId and Uniswap v4 at
    // its Base addresses (placed by test/chain/fixtures). With BASE_RPC_URL set it forks real
    // Base at a pinned block and the same suite runs against the live deployment.
    base: {
      type: 'edr-simulated',
      chainType: 'op',
      chainId: 8453,
      hardfork: 'isthmus',
      ...(baseRpcUrl ? { forking: { url: baseRpcUrl, blockNumber: BASE_FORK_BLOCK } } : {}),
    },
    // OP Mainnet as the Farcaster sign-in tests see it: chain 10 with test doubles of Farcaster's
    // IdRegistry and KeyRegistry placed at their addresses (test/support/local-optimism.ts), since
    // this machine cannot reach OP Mainnet. Production reads the real registries (FARCASTER_RPC_URL).
    optimism: {
      type: 'edr-simulated',
      chainType: 'op',
      chainId: 10,
    },
    // Real Base mainnet, for `hardhat ignition deploy --network baseMainnet`.
    baseMainnet: {
      type: 'http',
      chainType: 'op',
      chainId: 8453,
      url: configVariable('BASE_MAINNET_RPC_URL'),
      accounts: [configVariable('DEPLOYER_PRIVATE_KEY')],
    },
    // A local Base-like node for `npm start` (hardhat node --network base serves it).
    localBase: {
      type: 'http',
      chainType: 'op',
      chainId: 8453,
      url: process.env.CHAIN_RPC_URL ?? 'http://127.0.0.1:8545',
    },
  },
});
